import type { MessageItem } from '@brandwire/client';
import { OwnReplies, whyNotAnswered } from './ai-reply';

const item = (seq: number, kind: string, serial?: string): MessageItem => ({ seq, userKey: 'vera', sessionId: 's1', kind, text: `${kind} ${seq}`, timestampUnixMs: seq, ...(serial && { serial }) });

describe('whether a customer message is still to be answered by the AI', () => {
  it('is, with nothing after it', () => {
    expect(whyNotAnswered([item(10, 'message')], 10, new OwnReplies())).toBeUndefined();
  });

  it('is not when an agent answered after it, or the consultation ended or expired', () => {
    expect(whyNotAnswered([item(10, 'message'), item(11, 'agent', 'bw-1-a')], 10, new OwnReplies())).toBe('an agent answered');
    expect(whyNotAnswered([item(10, 'message'), item(11, 'ended')], 10, new OwnReplies())).toBe('the consultation ended');
    expect(whyNotAnswered([item(10, 'message'), item(11, 'expired')], 10, new OwnReplies())).toBe('the consultation expired');
  });

  it('is answered with the next one when the customer wrote again', () => {
    expect(whyNotAnswered([item(10, 'message'), item(11, 'message')], 10, new OwnReplies())).toBe('');
  });

  it("is, when what follows it is the AI's reply to the customer's message before it (journaled after the next message)", () => {
    const own = new OwnReplies();
    own.add('bw-1-a', 8);
    expect(whyNotAnswered([item(8, 'message'), item(10, 'message'), item(11, 'agent', 'bw-1-a')], 10, own)).toBeUndefined();
  });

  it("is not, when what follows it is the AI's reply to this very message (a signal delivered again)", () => {
    const own = new OwnReplies();
    own.add('bw-1-a', 10);
    expect(whyNotAnswered([item(10, 'message'), item(11, 'agent', 'bw-1-a')], 10, own)).toBe('an agent answered');
  });

  it('forgets the oldest of its replies past the most it keeps', () => {
    const own = new OwnReplies(2);
    own.add('bw-1-a', 1);
    own.add('bw-2-b', 2);
    own.add('bw-3-c', 3);
    expect(['bw-1-a', 'bw-2-b', 'bw-3-c'].map((serial) => own.answeredBefore(serial, 10))).toEqual([false, true, true]);
  });
});
