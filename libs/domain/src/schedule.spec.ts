import { type ConsultationSchedule, ianaTimeZone, isOpenAt, localTimeIn, parseSchedule } from './schedule';

const WEEKDAY_HOURS = [{ start: '09:00', end: '18:00' }];

function schedule(input: unknown, zone = 'Asia/Seoul'): ConsultationSchedule {
  const parsed = parseSchedule(input, zone);
  if (!parsed.ok) throw new Error(parsed.message);
  if (!parsed.schedule) throw new Error('expected a schedule');
  return parsed.schedule;
}

/** An instant given as a wall-clock time in UTC. */
const utc = (iso: string) => Date.parse(`${iso}Z`);

describe('parseSchedule', () => {
  it('takes null or undefined as always open', () => {
    expect(parseSchedule(null, 'Asia/Seoul')).toEqual({ ok: true, schedule: null });
    expect(parseSchedule(undefined, 'Asia/Seoul')).toEqual({ ok: true, schedule: null });
  });

  it('fills in the default time zone and every weekday, sorts ranges and holidays, drops duplicate holidays', () => {
    const parsed = parseSchedule(
      { weekly: { mon: [{ start: '13:00', end: '18:00' }, { start: '09:00', end: '12:00' }], sat: [] }, holidays: ['2025-12-25', '2025-01-01', '2025-12-25'] },
      'Asia/Seoul',
    );
    expect(parsed).toEqual({
      ok: true,
      schedule: {
        timeZone: 'Asia/Seoul',
        weekly: {
          mon: [{ start: '09:00', end: '12:00' }, { start: '13:00', end: '18:00' }],
          tue: [],
          wed: [],
          thu: [],
          fri: [],
          sat: [],
          sun: [],
        },
        holidays: ['2025-01-01', '2025-12-25'],
      },
    });
  });

  it('keeps a given time zone and accepts 24:00 as the end of the day; touching ranges do not overlap', () => {
    const s = schedule({ timeZone: 'Europe/Berlin', weekly: { fri: [{ start: '00:00', end: '12:00' }, { start: '12:00', end: '24:00' }] } });
    expect(s.timeZone).toBe('Europe/Berlin');
    expect(s.weekly.fri).toHaveLength(2);
  });

  it.each([
    ['not an object', 'mon-fri', 'schedule', /must be an object/],
    ['an array', [], 'schedule', /must be an object/],
    ['an unknown field', { weekly: {}, hours: 1 }, 'schedule.hours', /is not allowed/],
    ['a bad time zone', { timeZone: 'Mars/Olympus', weekly: {} }, 'schedule.timeZone', /IANA time zone/],
    ['an empty time zone', { timeZone: '', weekly: {} }, 'schedule.timeZone', /IANA time zone/],
    ['no weekly', { timeZone: 'UTC' }, 'schedule.weekly', /is required/],
    ['weekly not an object', { weekly: [] }, 'schedule.weekly', /must be an object with the days mon/],
    ['an unknown day', { weekly: { monday: [] } }, 'schedule.weekly.monday', /is not allowed; the fields are mon, tue/],
    ['a day not an array', { weekly: { mon: '09:00-18:00' } }, 'schedule.weekly.mon', /must be an array/],
    ['a range not an object', { weekly: { tue: ['09:00'] } }, 'schedule.weekly.tue[0]', /must be an object/],
    ['a range field too many', { weekly: { tue: [{ start: '09:00', end: '10:00', note: 'x' }] } }, 'schedule.weekly.tue[0].note', /is not allowed/],
    ['a 12-hour time', { weekly: { mon: [{ start: '9:00', end: '18:00' }] } }, 'schedule.weekly.mon[0].start', /HH:MM/],
    ['24:00 as a start', { weekly: { mon: [{ start: '24:00', end: '24:00' }] } }, 'schedule.weekly.mon[0].start', /00:00 to 23:59/],
    ['25:00', { weekly: { mon: [{ start: '09:00', end: '25:00' }] } }, 'schedule.weekly.mon[0].end', /HH:MM \(00:00 to 24:00\), got "25:00"/],
    ['a missing end', { weekly: { mon: [{ start: '09:00' }] } }, 'schedule.weekly.mon[0].end', /HH:MM/],
    ['end before start', { weekly: { mon: WEEKDAY_HOURS.concat([{ start: '20:00', end: '19:00' }]) } }, 'schedule.weekly.mon[1].end', /later than start \(20:00\)/],
    ['end equal to start', { weekly: { sun: [{ start: '10:00', end: '10:00' }] } }, 'schedule.weekly.sun[0].end', /later than start/],
    ['overlapping ranges', { weekly: { mon: [{ start: '13:00', end: '18:00' }, { start: '09:00', end: '13:30' }] } }, 'schedule.weekly.mon[1]', /overlaps schedule.weekly.mon\[0\] \(13:00-18:00\)/],
    ['too many ranges', { weekly: { mon: Array.from({ length: 25 }, (_, i) => ({ start: `00:${String(i).padStart(2, '0')}`, end: `00:${String(i + 1).padStart(2, '0')}` })) } }, 'schedule.weekly.mon', /at most 24/],
    ['holidays not an array', { weekly: {}, holidays: '2025-01-01' }, 'schedule.holidays', /must be an array/],
    ['a holiday that is no date', { weekly: {}, holidays: ['2025-01-01', '2025-02-30'] }, 'schedule.holidays[1]', /YYYY-MM-DD, got "2025-02-30"/],
    ['a holiday in another format', { weekly: {}, holidays: ['01/01/2025'] }, 'schedule.holidays[0]', /YYYY-MM-DD/],
  ])('refuses %s, naming the path', (_, input, path, message) => {
    const parsed = parseSchedule(input, 'Asia/Seoul');
    expect(parsed).toEqual({ ok: false, path, message: expect.stringMatching(message) });
    expect(parsed.ok === false && parsed.message.startsWith(`${path} `)).toBe(true);
  });

  it('names a long bad value by its first 40 characters and its length, not whole', () => {
    const zone = 'Z'.repeat(100_000);
    expect(parseSchedule({ timeZone: zone, weekly: {} }, 'UTC')).toEqual({
      ok: false,
      path: 'schedule.timeZone',
      message: `schedule.timeZone must be an IANA time zone such as Asia/Seoul, got "${'Z'.repeat(39)}... (100002 characters)`,
    });
    const parsed = parseSchedule({ weekly: { mon: [{ start: '9'.repeat(100_000), end: '18:00' }] } }, 'UTC');
    expect(parsed.ok === false && parsed.message.length).toBeLessThan(200);
  });

  it('uses the given root path in messages', () => {
    expect(parseSchedule({ weekly: { mon: 1 } }, 'UTC', 'body.hours')).toMatchObject({ ok: false, path: 'body.hours.weekly.mon' });
  });
});

describe('ianaTimeZone', () => {
  it.each([
    ['Asia/Seoul', 'Asia/Seoul'],
    ['asia/seoul', 'Asia/Seoul'],
    ['UTC', 'UTC'],
    ['utc', 'UTC'],
    ['America/New_York', 'America/New_York'],
    ['Seoul', undefined],
    ['+09:00', undefined],
    ['-0500', undefined],
    ['', undefined],
  ])('%s -> %p', (zone, name) => {
    expect(ianaTimeZone(zone)).toBe(name);
  });

  it('is how a schedule stores its time zone', () => {
    expect(parseSchedule({ timeZone: 'utc', weekly: {} }, 'Asia/Seoul')).toMatchObject({ ok: true, schedule: { timeZone: 'UTC' } });
    expect(parseSchedule({ timeZone: '+09:00', weekly: {} }, 'Asia/Seoul')).toEqual({ ok: false, path: 'schedule.timeZone', message: 'schedule.timeZone must be an IANA time zone such as Asia/Seoul, got "+09:00"' });
  });
});

describe('localTimeIn', () => {
  it('gives the local date, weekday and minute, crossing the date line as the zone does', () => {
    // Sunday 20:30 UTC is Monday 05:30 in Seoul
    expect(localTimeIn('UTC', utc('2025-01-05T20:30:00'))).toEqual({ date: '2025-01-05', weekday: 'sun', minutes: 20 * 60 + 30 });
    expect(localTimeIn('Asia/Seoul', utc('2025-01-05T20:30:00'))).toEqual({ date: '2025-01-06', weekday: 'mon', minutes: 5 * 60 + 30 });
    expect(localTimeIn('Asia/Seoul', utc('2025-01-05T15:00:00'))).toEqual({ date: '2025-01-06', weekday: 'mon', minutes: 0 });
  });
});

describe('isOpenAt', () => {
  const weekdays = schedule({ weekly: { mon: WEEKDAY_HOURS, tue: WEEKDAY_HOURS, wed: WEEKDAY_HOURS, thu: WEEKDAY_HOURS, fri: WEEKDAY_HOURS }, holidays: ['2025-01-07'] });

  it('is always open without a schedule', () => {
    expect(isOpenAt(null, utc('2025-01-05T03:00:00'))).toBe(true);
  });

  it.each([
    ['Monday 08:59 KST -> closed', '2025-01-05T23:59:00', false],
    ['Monday 09:00 KST (start is inclusive) -> open', '2025-01-06T00:00:00', true],
    ['Monday 17:59 KST -> open', '2025-01-06T08:59:00', true],
    ['Monday 18:00 KST (end is exclusive) -> closed', '2025-01-06T09:00:00', false],
    ['Tuesday 10:00 KST, a holiday -> closed', '2025-01-07T01:00:00', false],
    ['Wednesday 10:00 KST -> open', '2025-01-08T01:00:00', true],
    ['Saturday 10:00 KST -> closed', '2025-01-11T01:00:00', false],
    ['Sunday 10:00 UTC is Sunday 19:00 KST -> closed', '2025-01-05T10:00:00', false],
  ])('%s (in the time zone of the schedule)', (_, instant, open) => {
    expect(isOpenAt(weekdays, utc(instant))).toBe(open);
  });

  it('reads ranges in local wall-clock time across a daylight-saving change', () => {
    const ny = schedule({ timeZone: 'America/New_York', weekly: { sun: [{ start: '09:00', end: '10:00' }] } });
    // 2025-03-09: clocks go from EST (UTC-5) to EDT (UTC-4) at 02:00; 09:00 local is 13:00 UTC that day
    expect(isOpenAt(ny, utc('2025-03-09T13:30:00'))).toBe(true);
    expect(isOpenAt(ny, utc('2025-03-09T14:30:00'))).toBe(false);
    // a week before (EST) 09:00 local was 14:00 UTC
    expect(isOpenAt(ny, utc('2025-03-02T14:30:00'))).toBe(true);
  });

  it('treats 24:00 as the end of the day', () => {
    const late = schedule({ timeZone: 'UTC', weekly: { fri: [{ start: '22:00', end: '24:00' }] } });
    expect(isOpenAt(late, utc('2025-01-10T23:59:00'))).toBe(true);
    expect(isOpenAt(late, utc('2025-01-11T00:00:00'))).toBe(false);
  });
});
