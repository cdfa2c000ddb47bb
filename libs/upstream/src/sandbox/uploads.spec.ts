import { must } from '../test-support/must';
import { TINY_GIF, TINY_JPEG, TINY_PNG } from '../testing/images';
import { customerMessagesOf } from './customer-messages';
import { sniffImage } from './uploads';

describe('sniffImage', () => {
  it('knows png, jpeg and gif by their magic bytes', () => {
    expect(sniffImage(TINY_PNG)).toBe('image/png');
    expect(sniffImage(TINY_JPEG)).toBe('image/jpeg');
    expect(sniffImage(TINY_GIF)).toBe('image/gif');
  });

  it('refuses anything else', () => {
    expect(sniffImage(Buffer.from('just some text, renamed to .png'))).toBeUndefined();
    expect(sniffImage(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('customerMessagesOf', () => {
  it('sends the text first, then one message per attachment type, photos bundled', () => {
    const msgs = customerMessagesOf(
      'look',
      [{ type: 'photo', caption: 'front' }, { type: 'file' }, { type: 'photo' }],
      'cdn.test',
    );
    expect(msgs.map((m) => [m.type, m.contents.length])).toEqual([
      ['text', 1],
      ['photo', 2],
      ['file', 1],
    ]);
    const photos = must(msgs[1]).contents as { url: string; comment: string }[];
    expect(photos[0]).toEqual({ url: expect.stringMatching(/^https:\/\/cdn\.test\/[0-9a-f]+\.jpg$/), comment: 'front' });
    expect(must(photos[1]).comment).toBe('');
    expect(must(msgs[1]).bubble.text).toBe(`[photo] ${must(photos[0]).url} front\n[photo] ${must(photos[1]).url}`);
  });
});
