import type { AttachmentResult } from '@brandwire/client';
import { partlyDone, planSend } from './send-message';

const target = { brandKey: 'acme-kakao', userKey: 'alice' };

describe('planSend', () => {
  it('sends text with --text alone', () => {
    expect(planSend({ ...target, text: 'hi' })).toEqual({ kind: 'text', text: 'hi' });
  });

  it.each([
    [{ text: 'x', richJson: 'card.json' }, '--rich-json cannot be combined with --text or --file'],
    [{ files: ['a.png'], richJson: 'card.json' }, '--rich-json cannot be combined with --text or --file'],
    [{ text: 'x', imageStyle: 'plain' as const }, '--image-style applies to --file images only'],
    [{}, 'nothing to send'],
    [{ text: '' }, 'nothing to send'],
  ])('refuses %j as a usage error', (input, message) => {
    expect(() => planSend({ ...target, ...input })).toThrow(expect.objectContaining({ code: 'USAGE', exit: 2, message: expect.stringContaining(message) }));
  });
});

describe('partlyDone', () => {
  const sent = { ok: true as const, ...target, serial: 's1' };

  it('is nothing when every bubble was delivered, or when nothing had several bubbles', () => {
    expect(partlyDone({ ...sent, results: [{ kind: 'image', ok: true, code: '0', serial: 's1' }] })).toBeUndefined();
    expect(partlyDone(sent)).toBeUndefined();
  });

  it('says ok:false, PARTLY_DONE and how many of how many failed, keeping the results', () => {
    const results: AttachmentResult[] = [
      { kind: 'image', ok: false, code: 'UNSUPPORTED_IMAGE', serial: 's1', message: 'not an image' },
      { kind: 'file', ok: true, code: '0', serial: 's2' },
    ];
    expect(partlyDone({ ...sent, serial: 's2', results })).toEqual({
      ok: false,
      error: '1 of 2 bubbles were not delivered',
      code: 'PARTLY_DONE',
      brandKey: 'acme-kakao',
      userKey: 'alice',
      serial: 's2',
      results,
    });
  });
});
