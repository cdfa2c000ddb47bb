import { ServiceHarness, TOKENS } from '../test-support/service-harness';

interface ScheduleReply {
  ok: boolean;
  brand: string;
  schedule: { timeZone: string; weekly: Record<string, Array<{ start: string; end: string }>>; holidays: string[] } | null;
  openNow: boolean;
}

const DAY_MS = 24 * 3600 * 1000;
const HOUR_MS = 3600 * 1000;
const MORNINGS = [{ start: '00:00', end: '12:00' }];
/** Open 00:00-12:00 UTC every day. */
const MORNINGS_UTC = { timeZone: 'UTC', weekly: { mon: MORNINGS, tue: MORNINGS, wed: MORNINGS, thu: MORNINGS, fri: MORNINGS, sat: MORNINGS, sun: MORNINGS } };

describe('consultation hours (/api/agent/settings/schedule)', () => {
  let h: ServiceHarness;
  const read = async () => h.get<ScheduleReply>('/api/agent/settings/schedule?brand=acme-kakao', TOKENS.reader);
  const put = (body: unknown, token: string = TOKENS.admin) => h.request<ScheduleReply>('PUT', '/api/agent/settings/schedule', { token, body });
  const now = async () => (await h.post<{ now: number }>('/sandbox/clock', { advanceSeconds: 0 })).body.now;
  const advanceTo = async (target: number) => h.post('/sandbox/clock', { advanceSeconds: Math.ceil((target - (await now())) / 1000) });
  const sandboxSchedule = async () => {
    const sandbox = h.service.runtime.sandbox;
    const channel = await h.service.runtime.store.directory.findChannel('acme-kakao');
    if (!sandbox || !channel) throw new Error('expected the sandbox messenger and the channel');
    const info = await sandbox.control.channel(channel.senderKey);
    if (!info.ok) throw new Error(info.message);
    return info.schedule;
  };

  beforeAll(async () => {
    h = await ServiceHarness.start({ env: { BRANDWIRE_TIMEZONE: 'Europe/Berlin' } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('has no hours at first (always open), readable with any key of the brand', async () => {
    for (const token of [TOKENS.reader, TOKENS.writer, TOKENS.admin]) {
      const reply = await h.get('/api/agent/settings/schedule?brand=acme-kakao', token);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ ok: true, brand: 'acme-kakao', schedule: null, openNow: true });
    }
  });

  it.each([
    ['BrandWrite', TOKENS.writer],
    ['BrandRead', TOKENS.reader],
  ])('refuses a %s key with 403 FORBIDDEN naming Admin, and changes nothing', async (scope, token) => {
    const reply = await put({ brandKey: 'acme-kakao', schedule: MORNINGS_UTC }, token);
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ ok: false, code: 'FORBIDDEN', message: `this key has scope ${scope}; PUT /api/agent/settings/schedule needs Admin or higher` });
    expect((await read()).body.schedule).toBeNull();
  });

  it('sets the hours in complete form, with the service time zone when none is given, and gives them to the messenger', async () => {
    const weekdays = [{ start: '13:00', end: '18:00' }, { start: '09:00', end: '12:00' }];
    const reply = await put({ brandKey: 'acme-kakao', schedule: { weekly: { mon: weekdays, fri: weekdays }, holidays: ['2025-12-25', '2025-01-01'] } });
    expect(reply.status).toBe(200);
    const sorted = [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '18:00' }];
    const expected = {
      timeZone: 'Europe/Berlin',
      weekly: { mon: sorted, tue: [], wed: [], thu: [], fri: sorted, sat: [], sun: [] },
      holidays: ['2025-01-01', '2025-12-25'],
    };
    expect(reply.body).toEqual({ ok: true, brand: 'acme-kakao', schedule: expected, openNow: expect.any(Boolean) });
    expect((await read()).body.schedule).toEqual(expected);
    expect(await sandboxSchedule()).toEqual(expected);
  });

  it.each([
    ['an overlapping range', { weekly: { mon: [{ start: '09:00', end: '12:00' }, { start: '11:00', end: '13:00' }] } }, /^schedule\.weekly\.mon\[1\] overlaps schedule\.weekly\.mon\[0\]/],
    ['an end before the start', { weekly: { mon: [{ start: '09:00', end: '12:00' }, { start: '14:00', end: '13:00' }] } }, /^schedule\.weekly\.mon\[1\]\.end must be later than start/],
    ['a 12-hour time', { weekly: { tue: [{ start: '9am', end: '18:00' }] } }, /^schedule\.weekly\.tue\[0\]\.start must be a 24-hour time HH:MM/],
    ['an unknown time zone', { timeZone: 'Seoul', weekly: {} }, /^schedule\.timeZone must be an IANA time zone/],
    ['an unknown day', { weekly: { monday: [] } }, /^schedule\.weekly\.monday is not allowed/],
    ['no weekly', { holidays: [] }, /^schedule\.weekly is required/],
    ['a bad holiday', { weekly: {}, holidays: ['2025-13-01'] }, /^schedule\.holidays\[0\] must be a date YYYY-MM-DD/],
    ['a text instead of an object', 'weekdays 9-18', /^schedule must be an object/],
  ])('refuses %s with 400 BAD_REQUEST naming the field, and keeps the hours it had', async (_, schedule, message) => {
    const before = (await read()).body.schedule;
    const reply = await put({ brandKey: 'acme-kakao', schedule });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'BAD_REQUEST', message: expect.stringMatching(message) });
    expect((await read()).body.schedule).toEqual(before);
    expect(await sandboxSchedule()).toEqual(before);
  });

  it('refuses fields next to brandKey and schedule', async () => {
    const reply = await put({ brandKey: 'acme-kakao', schedule: null, hours: 'all' });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('hours') });
  });

  it('outside the hours the customer still starts a consultation and sees the out-of-hours notice', async () => {
    expect((await put({ brandKey: 'acme-kakao', schedule: MORNINGS_UTC })).status).toBe(200);
    const t = await now();
    // the next 13:00 UTC, a minute after: closed
    await advanceTo(Math.ceil((t - 13 * HOUR_MS) / DAY_MS) * DAY_MS + 13 * HOUR_MS + 60_000);
    expect((await read()).body.openNow).toBe(false);

    await h.customerWrites('night-owl', { text: 'are you there?' });
    const rooms = await h.get<{ rooms: Array<{ userKey: string }> }>('/api/agent/rooms?brand=acme-kakao', TOKENS.reader);
    expect(rooms.body.rooms.map((r) => r.userKey)).toContain('night-owl');
    const texts = await h.get<{ messages: { outOfHours: string } }>('/api/agent/settings/system-messages?brand=acme-kakao', TOKENS.reader);
    expect((await h.customerChat('night-owl')).map((b) => [b.from, b.kind, b.text])).toEqual([
      ['customer', 'text', 'are you there?'],
      ['system', 'notice', texts.body.messages.outOfHours],
    ]);
    // agents can still answer
    const sent = await h.post<{ ok: boolean }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'night-owl', text: 'we open at midnight UTC' });
    expect(sent.body.ok).toBe(true);
  });

  it('within the hours the continuing consultation gets no notice', async () => {
    await h.post('/sandbox/clock', { advanceSeconds: 12 * 3600 }); // 01:01 UTC: open
    expect((await read()).body.openNow).toBe(true);
    await h.customerWrites('night-owl', { text: 'good morning' });
    expect((await h.customerChat('night-owl')).slice(-2).map((b) => [b.from, b.text])).toEqual([
      ['agent', 'we open at midnight UTC'],
      ['customer', 'good morning'],
    ]);
  });

  it('null (or no schedule at all) means always open again, for the service and the messenger', async () => {
    await h.post('/sandbox/clock', { advanceSeconds: 12 * 3600 }); // 13:01 UTC: closed under the old hours
    const cleared = await put({ brandKey: 'acme-kakao', schedule: null });
    expect(cleared.body).toEqual({ ok: true, brand: 'acme-kakao', schedule: null, openNow: true });
    expect(await sandboxSchedule()).toBeNull();
    await h.customerWrites('night-owl', { text: 'still open?' });
    expect((await h.customerChat('night-owl')).slice(-1).map((b) => [b.from, b.text])).toEqual([['customer', 'still open?']]);

    await put({ brandKey: 'acme-kakao', schedule: MORNINGS_UTC });
    const absent = await put({ brandKey: 'acme-kakao' });
    expect(absent.body).toMatchObject({ ok: true, schedule: null });
  });
});
