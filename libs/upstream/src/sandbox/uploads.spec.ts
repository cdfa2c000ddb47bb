import { must } from '../test-support/must';
import { customerMessagesOf } from './customer-messages';

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
