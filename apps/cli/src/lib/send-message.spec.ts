import { planSend } from './send-message';

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
