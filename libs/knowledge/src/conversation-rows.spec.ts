import { DELETION_NOTICE } from '@brandwire/domain';
import { conversationRow, type CsvValue, emitTurns, timestampOf } from './conversation-rows';
import { CDN, conversation, line, parcelConversation } from './test-support/conversations';

const ctx = { attachmentHost: CDN };

function collect(run: (sink: (stream: string, row: CsvValue[]) => void) => void): Map<string, CsvValue[][]> {
  const rows = new Map<string, CsvValue[][]>();
  run((stream, row) => rows.set(stream, [...(rows.get(stream) ?? []), row]));
  return rows;
}

describe('emitTurns', () => {
  it('makes inquiries, responses and typed attachments with turn ids <convId>#<line>', () => {
    const rows = collect((sink) => emitTurns(parcelConversation(), undefined, ctx, sink));
    expect(rows.get('Inquiry')?.map((r) => r[0])).toEqual(['conv-1#1', 'conv-1#2']);
    expect(rows.get('Response')?.map((r) => [r[0], r[3]])).toEqual([
      ['conv-1#3', 'agent'],
      ['conv-1#4', 'bot'],
    ]);
    expect(rows.get('Attachment')).toEqual([
      ['conv-1#2/1', 'photo', `https://${CDN}/a.jpg`, 'the torn box'],
      ['conv-1#2/2', 'photo', `https://${CDN}/b.jpg`, null],
    ]);
    expect(rows.get('ENDED_Response_Conversation')).toEqual([['conv-1#4', 'conv-1']]);
  });

  it('links every inquiry since the previous response to each response that follows', () => {
    const conv = conversation('c', [line('customer', 'q1', 0), line('customer', 'q2', 1), line('agent', 'a1', 2), line('agent', 'a2', 3), line('customer', 'q3', 4), line('agent', 'a3', 5)]);
    const rows = collect((sink) => emitTurns(conv, undefined, ctx, sink));
    expect(rows.get('ANSWERED_BY_Inquiry_Response')).toEqual([
      ['c#1', 'c#3', 2],
      ['c#2', 'c#3', 1],
      ['c#1', 'c#4', 3],
      ['c#2', 'c#4', 2],
      ['c#5', 'c#6', 1],
    ]);
  });

  it('emits only rows touching new turns when part of the conversation is loaded', () => {
    const conv = conversation('c', [line('customer', 'q1', 0), line('agent', 'a1', 1), line('agent', 'a2', 2), line('system', 'ended', 3)], { ended: true });
    const rows = collect((sink) => emitTurns(conv, { channel: 'brand-a', lines: 2, ended: false }, ctx, sink));
    expect(rows.get('Inquiry')).toBeUndefined();
    expect(rows.get('Response')?.map((r) => r[0])).toEqual(['c#3']);
    expect(rows.get('ANSWERED_BY_Inquiry_Response')).toEqual([['c#1', 'c#3', 2]]);
    expect(rows.get('ENDED_Response_Conversation')).toEqual([['c#3', 'c']]);
  });

  it('makes no response of a deleted agent message: it answers nothing, and the next response answers the inquiries', () => {
    const conv = conversation('c', [line('customer', 'q1', 0), { ...line('agent', 'sent to the wrong customer', 1), deleted: true }, line('agent', 'a1', 2)], { ended: true });
    const rows = collect((sink) => emitTurns(conv, undefined, ctx, sink));
    expect(rows.get('Response')?.map((r) => [r[0], r[4]])).toEqual([['c#3', 'a1']]);
    expect(rows.get('ANSWERED_BY_Inquiry_Response')).toEqual([['c#1', 'c#3', 2]]);
    expect(rows.get('ENDED_Response_Conversation')).toEqual([['c#3', 'c']]);
  });

  it('adds no ENDED when the graph already knew the conversation had ended', () => {
    const conv = parcelConversation();
    const rows = collect((sink) => emitTurns(conv, { channel: 'brand-a', lines: conv.lines.length, ended: true }, ctx, sink));
    expect(rows.size).toBe(0);
  });
});

describe('conversationRow and timestampOf', () => {
  it('takes start, end and last activity from the lines', () => {
    const row = conversationRow(parcelConversation());
    expect(row.slice(5, 10)).toEqual([true, '2026-11-20T10:00:00.000+09:00', '2026-11-20T10:04:00.000+09:00', '2026-11-20T10:04:00.000+09:00', 5]);
  });

  it('ends a conversation with its end, not with the notice of a deletion made after it', () => {
    const ended = parcelConversation();
    const deletedLater = { ...ended, lines: [...ended.lines, line('system', DELETION_NOTICE, 9)] };
    expect(conversationRow(deletedLater).slice(5, 10)).toEqual([true, '2026-11-20T10:00:00.000+09:00', '2026-11-20T10:04:00.000+09:00', '2026-11-20T10:09:00.000+09:00', 6]);
  });

  it('passes ISO times with an offset through, normalises others and refuses non-times', () => {
    expect(timestampOf('2026-11-20T10:00:00.123+09:00')).toBe('2026-11-20T10:00:00.123+09:00');
    expect(timestampOf('Fri, 20 Nov 2026 01:00:00 GMT')).toBe('2026-11-20T01:00:00.000Z');
    expect(timestampOf('yesterday')).toBeNull();
  });
});
