import { checkRichGeometry, richCanvas } from './rich-image';

describe('checkRichGeometry', () => {
  it.each([
    [500, 666],
    [500, 250],
    [750, 1000],
    [4000, 2000],
    [1200, 1200],
  ])('accepts %i×%i', (width, height) => {
    expect(checkRichGeometry(width, height)).toEqual({ ok: true });
  });

  it.each([
    [499, 400, 'at least 500 px wide'],
    [300, 800, 'at least 500 px wide'],
    [500, 667, 'aspect ratio from 3:4 to 2:1'],
    [1001, 500, 'aspect ratio from 3:4 to 2:1'],
    [4000, 500, 'aspect ratio from 3:4 to 2:1'],
  ])('refuses %i×%i, naming the rule', (width, height, rule) => {
    const check = checkRichGeometry(width, height);
    expect(check).toEqual({ ok: false, message: expect.stringContaining(rule) });
    expect(check).toEqual({ ok: false, message: expect.stringContaining(`${width}×${height}`) });
  });
});

describe('richCanvas', () => {
  it.each([
    [300, 800, { width: 600, height: 800, left: 150, right: 150, top: 0, bottom: 0 }],
    [4000, 500, { width: 4000, height: 2000, left: 0, right: 0, top: 750, bottom: 750 }],
    [300, 100, { width: 500, height: 250, left: 100, right: 100, top: 75, bottom: 75 }],
    [801, 1100, { width: 825, height: 1100, left: 12, right: 12, top: 0, bottom: 0 }],
    [1000, 1000, { width: 1000, height: 1000, left: 0, right: 0, top: 0, bottom: 0 }],
  ])('pads %i×%i to %o', (width, height, canvas) => {
    expect(richCanvas(width, height)).toEqual(canvas);
  });

  it('always gives the smallest passing canvas that holds the picture', () => {
    let seed = 7;
    const random = (max: number) => {
      seed = (seed * 48271) % 0x7fffffff;
      return 1 + (seed % max);
    };
    for (let i = 0; i < 2000; i += 1) {
      const [width, height] = [random(5000), random(5000)];
      const canvas = richCanvas(width, height);
      expect(checkRichGeometry(canvas.width, canvas.height)).toEqual({ ok: true });
      expect([canvas.left + width + canvas.right, canvas.top + height + canvas.bottom]).toEqual([canvas.width, canvas.height]);
      expect(Math.min(canvas.left, canvas.right, canvas.top, canvas.bottom)).toBeGreaterThanOrEqual(0);
      expect(Math.abs(canvas.left - canvas.right) + Math.abs(canvas.top - canvas.bottom)).toBeLessThanOrEqual(2);
      // one pixel less in either direction fails a rule or no longer holds the picture
      const narrower = canvas.width - 1 < width || !checkRichGeometry(canvas.width - 1, canvas.height).ok;
      const lower = canvas.height - 1 < height || !checkRichGeometry(canvas.width, canvas.height - 1).ok;
      expect([narrower, lower]).toEqual([true, true]);
    }
  });
});
