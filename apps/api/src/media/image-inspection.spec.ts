import { claimsImage } from './image-inspection';

describe('claimsImage', () => {
  it.each([
    ['image/jpeg', undefined],
    ['IMAGE/PNG; charset=binary', 'x.bin'],
    ['image/gif', 'x'],
    [undefined, 'photo.JPG'],
    ['application/octet-stream', 'photo.jpeg'],
    ['text/plain', 'photo.png'],
  ])('is true for Content-Type %s or name %s', (contentType, fileName) => {
    expect(claimsImage(contentType, fileName)).toBe(true);
  });

  it.each([
    ['image/webp', 'a.webp'],
    ['image/heic', 'IMG_0001.HEIC'],
    ['application/pdf', 'report.pdf'],
    [undefined, 'jpg'],
    [undefined, undefined],
  ])('is false for Content-Type %s and name %s', (contentType, fileName) => {
    expect(claimsImage(contentType, fileName)).toBe(false);
  });
});
