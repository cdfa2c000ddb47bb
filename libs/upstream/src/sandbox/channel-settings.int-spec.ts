import { ShiftableClock } from '../clock';
import { KAKAO, OTHER, customerSays, serial } from '../test-support/fixtures';
import { SandboxHarness, startSandboxHarness } from '../testing/harness';
import { ChannelInfo } from './control-types';
import { defaultSystemMessages } from './system-messages';

/** Monday 2025-01-06 08:00 in Seoul (23:00 UTC the day before). */
const MONDAY_8AM_SEOUL = Date.parse('2025-01-05T23:00:00Z');
const HOUR = 3600;
const NINE_TO_SIX = [{ start: '09:00', end: '18:00' }];
const WEEKDAYS = { timeZone: 'Asia/Seoul', weekly: { mon: NINE_TO_SIX, tue: NINE_TO_SIX, wed: NINE_TO_SIX, thu: NINE_TO_SIX, fri: NINE_TO_SIX } };

describe('sandbox channel settings: system messages and consultation hours', () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    const start = Date.now();
    // the clock starts at a known local time and runs from there
    const clock = new ShiftableClock(0, () => MONDAY_8AM_SEOUL + (Date.now() - start));
    h = await startSandboxHarness({ clock, channels: { [KAKAO]: { type: 'kakao' }, [OTHER]: { type: 'line' } } });
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => h.receiver.clear());
  afterEach(async () => {
    await h.receiver.verify();
  });

  const info = async (senderKey = KAKAO): Promise<ChannelInfo> => {
    const r = await h.control.channel(senderKey);
    if (!r.ok) throw new Error(r.message);
    return r;
  };
  const bubbles = async (userKey: string) => {
    const r = await h.control.chat(userKey, KAKAO);
    if (!r.ok) throw new Error(r.message);
    return r.bubbles.map((b) => [b.from, b.kind, b.text]);
  };

  it('shows a channel with chat on, no hours (always open) and the default system messages', async () => {
    expect(await info()).toEqual({
      ok: true,
      senderKey: KAKAO,
      type: 'kakao',
      chatbotBuilder: false,
      active: true,
      schedule: null,
      systemMessages: defaultSystemMessages(),
    });
    await expect(h.control.channel('no-such-channel')).resolves.toEqual({ ok: false, code: 'UNKNOWN_CHANNEL', message: expect.stringContaining('no-such-channel') });
  });

  it('reports the chat state the partner set', async () => {
    await h.messenger.deactivateChat(OTHER);
    expect((await info(OTHER)).active).toBe(false);
    await h.messenger.activateChat(OTHER);
    expect((await info(OTHER)).active).toBe(true);
  });

  it('changes only the system messages given; a bad one changes nothing', async () => {
    await expect(h.control.setChannel(OTHER, { type: 'line', chatbotBuilder: false, systemMessages: { greeting: 'Hi there', autoAnswers: { S2: 'Back soon' } } })).resolves.toEqual({ ok: true });
    const texts = (await info(OTHER)).systemMessages;
    expect(texts).toEqual({ ...defaultSystemMessages(), greeting: 'Hi there', autoAnswers: { ...defaultSystemMessages().autoAnswers, S2: 'Back soon' } });
    await expect(h.control.setChannel(OTHER, { type: 'kakao', chatbotBuilder: true, systemMessages: { autoAnswers: { S3: '' } } })).resolves.toEqual({
      ok: false,
      code: 'BAD_REQUEST',
      message: 'systemMessages.autoAnswers.S3 must be a text of 1 to 1000 characters',
    });
    expect(await info(OTHER)).toMatchObject({ type: 'line', chatbotBuilder: false, systemMessages: texts });
    // setting the type again keeps the texts
    await h.control.setChannel(OTHER, { type: 'line', chatbotBuilder: false });
    expect((await info(OTHER)).systemMessages).toEqual(texts);
  });

  it('refuses an invalid schedule naming the field, and keeps the one it had', async () => {
    const bad = { weekly: { mon: [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '12:30' }] } };
    await expect(h.control.setSchedule(KAKAO, bad as never)).resolves.toEqual({
      ok: false,
      code: 'BAD_REQUEST',
      message: expect.stringMatching(/^schedule\.weekly\.mon\[1\]\.end must be later than start/),
    });
    await expect(h.control.setSchedule('no-such-channel', null)).resolves.toMatchObject({ ok: false, code: 'UNKNOWN_CHANNEL' });
    expect((await info()).schedule).toBeNull();
  });

  it('outside the hours: the consultation starts as usual and the customer also sees the out-of-hours notice', async () => {
    const set = await h.control.setSchedule(KAKAO, { ...WEEKDAYS, weekly: { ...defaultWeek(), ...WEEKDAYS.weekly }, holidays: [] });
    expect(set).toMatchObject({ ok: true, schedule: { timeZone: 'Asia/Seoul', weekly: { mon: NINE_TO_SIX, sat: [] } } });
    expect((await info()).schedule).toMatchObject({ timeZone: 'Asia/Seoul' });

    h.receiver.expect('/reference', (b) => b['user_key'] === 'early-bird');
    h.receiver.expect('/message', (b) => b['user_key'] === 'early-bird');
    await customerSays(h, 'early-bird', 'anyone there?');
    const outOfHours = defaultSystemMessages().outOfHours;
    expect(await bubbles('early-bird')).toEqual([
      ['customer', 'text', 'anyone there?'],
      ['system', 'notice', outOfHours],
    ]);
    // the partner can still answer in the consultation
    await expect(h.messenger.writeText({ senderKey: KAKAO, userKey: 'early-bird', serialNumber: serial(), message: 'we open at 9' })).resolves.toEqual({ code: '0', message: null });
  });

  it('within the hours no notice; after closing time the continuing consultation gets it again', async () => {
    await h.control.advanceClock(HOUR); // Monday 09:00
    await customerSays(h, 'early-bird', 'it is nine now');
    expect((await bubbles('early-bird')).slice(-1)).toEqual([['customer', 'text', 'it is nine now']]);

    await h.control.advanceClock(9 * HOUR); // Monday 18:00, closed
    h.receiver.expect('/message', (b) => b['user_key'] === 'early-bird');
    await customerSays(h, 'early-bird', 'one more thing');
    expect(h.receiver.of('/reference')).toEqual([]);
    expect((await bubbles('early-bird')).slice(-2)).toEqual([
      ['customer', 'text', 'one more thing'],
      ['system', 'notice', defaultSystemMessages().outOfHours],
    ]);
  });

  it('a holiday is closed all day; the notice is the channel wording; no schedule means always open', async () => {
    await h.control.setChannel(KAKAO, { type: 'kakao', chatbotBuilder: false, systemMessages: { outOfHours: 'Closed today, sorry!' } });
    await h.control.advanceClock(16 * HOUR); // Tuesday 10:00
    await h.control.setSchedule(KAKAO, { ...WEEKDAYS, weekly: { ...defaultWeek(), ...WEEKDAYS.weekly }, holidays: ['2025-01-07'] });
    await customerSays(h, 'holiday', 'open?');
    expect(await bubbles('holiday')).toEqual([
      ['customer', 'text', 'open?'],
      ['system', 'notice', 'Closed today, sorry!'],
    ]);
    await h.control.setSchedule(KAKAO, null);
    await customerSays(h, 'holiday', 'still?');
    expect((await bubbles('holiday')).slice(-1)).toEqual([['customer', 'text', 'still?']]);
  });

  it('a customer who writes while chat is deactivated sees the S1 wording', async () => {
    await h.control.setChannel(KAKAO, { type: 'kakao', chatbotBuilder: false, systemMessages: { autoAnswers: { S1: 'No consultations today.' } } });
    await h.messenger.deactivateChat(KAKAO);
    try {
      await expect(h.control.customerMessage('turned-away', { senderKey: KAKAO, text: 'hello?' })).resolves.toMatchObject({ ok: false, code: 'CHAT_DEACTIVATED' });
      expect(await bubbles('turned-away')).toEqual([['system', 'notice', 'No consultations today.']]);
    } finally {
      await h.messenger.activateChat(KAKAO);
    }
    expect((await info()).active).toBe(true);
  });
});

function defaultWeek() {
  return { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] };
}
