import { type RoomItem, conversationTurns, isHandoff, replyInstructions, replyText } from './reply-prompt';

const item = (seq: number, kind: string, text: string, sessionId = 's2', deleted?: boolean): RoomItem => ({ seq, sessionId, kind, text, ...(deleted && { deleted }) });

describe('the AI reply prompt', () => {
  it("turns the consultation up to the message into the model's turns: this session only, runs of one side joined, starting with the customer", () => {
    const newestFirst = [
      item(9, 'message', 'written after: not seen yet'),
      item(8, 'message', 'and the other one?'),
      item(7, 'message', 'is it blue?'),
      item(6, 'agent', 'deleted by the agent', 's2', true),
      item(5, 'agent', 'Here it is.'),
      item(4, 'message', 'I want the catalogue'),
      item(3, 'agent', 'Welcome!'),
      item(2, 'reference', ''),
      item(1, 'message', 'an earlier consultation', 's1'),
    ];
    expect(conversationTurns(newestFirst, newestFirst[1] as RoomItem)).toEqual([
      { role: 'user', content: 'I want the catalogue' },
      { role: 'assistant', content: 'Here it is.' },
      { role: 'user', content: 'is it blue?\nand the other one?' },
    ]);
  });

  it('keeps a reply within the 1,000 characters the messenger takes, cut at a word', () => {
    expect(replyText('  short  ')).toBe('short');
    const long = `${'word '.repeat(300)}`;
    const cut = replyText(long);
    expect(cut.length).toBeLessThanOrEqual(1000);
    expect(cut).toMatch(/word…$/);
    expect(replyText('😀'.repeat(1001))).toBe(`${'😀'.repeat(999)}…`);
  });

  it("keeps no control character of the model's in a reply: whole escape sequences, bells, bidi overrides", () => {
    expect(replyText('Hi\u001b[2J\u001b]0;pwned\u0007 there\u202e\nBye\tnow')).toBe('Hi there\nBye\tnow');
  });

  it("sends no remains of a model's colour sequence", () => {
    const reply = replyText('Your parcel left today.\u001b[31m');
    expect(reply).not.toContain('[31m');
    expect(reply).toBe('Your parcel left today.');
  });

  it('knows the hand-over answer however it is dressed, and only that', () => {
    expect(['HANDOFF', ' handoff. ', '**HANDOFF**'].map(isHandoff)).toEqual([true, true, true]);
    expect(isHandoff('I will HANDOFF you to an agent')).toBe(false);
  });

  it("adds the brand's instructions after its own", () => {
    expect(replyInstructions('acme-kakao', undefined)).not.toContain("The brand's instructions");
    expect(replyInstructions('acme-kakao', 'Say hi.')).toMatch(/acme-kakao[\s\S]*HANDOFF[\s\S]*The brand's instructions:\nSay hi\.$/);
  });
});
