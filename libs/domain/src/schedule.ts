/**
 * Consultation hours of a channel: opening ranges per weekday in one IANA time zone, minus holidays.
 * No schedule (null) means always open. Pure: time zones are resolved with Intl, nothing is read or written.
 */

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** Local wall-clock times `HH:MM` (24 h); `end` may be `24:00` (midnight at the end of the day); start < end. */
export interface OpeningRange {
  start: string;
  end: string;
}

export interface ConsultationSchedule {
  /** IANA time zone the ranges and holidays are in, e.g. Asia/Seoul */
  timeZone: string;
  /** every weekday, each with 0..n non-overlapping ranges sorted by start; no range = closed that day */
  weekly: Record<Weekday, OpeningRange[]>;
  /** local dates `YYYY-MM-DD` on which the channel is closed all day, sorted, without duplicates */
  holidays: string[];
}

export const MAX_RANGES_PER_DAY = 24;
export const MAX_HOLIDAYS = 1000;

export type ScheduleCheck =
  | { ok: true; schedule: ConsultationSchedule | null }
  | { ok: false; path: string; message: string };

const SCHEDULE_FIELDS = ['timeZone', 'weekly', 'holidays'];
const RANGE_FIELDS = ['start', 'end'];
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MINUTES_PER_DAY = 24 * 60;

class Invalid extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(`${path} ${detail}`);
  }
}

type Obj = Record<string, unknown>;

function isObj(x: unknown): x is Obj {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function onlyFields(o: Obj, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) throw new Invalid(`${path}.${key}`, `is not allowed; the fields are ${allowed.join(', ')}`);
  }
}

/**
 * The IANA time zone `zone` names, spelled as the runtime spells it (`utc` is `UTC`, `asia/seoul` `Asia/Seoul`), or
 * undefined. An offset such as `+09:00` is no IANA zone: newer runtimes take it, Node 20 does not, so none does here.
 */
export function ianaTimeZone(zone: string): string | undefined {
  if (zone.length === 0 || /^[+-]/.test(zone)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** A value as a message names it: JSON, its first 40 characters when longer (a field may hold megabytes). */
function shown(v: unknown): string {
  const json = JSON.stringify(v) ?? String(v);
  return json.length <= 40 ? json : `${json.slice(0, 40)}... (${json.length} characters)`;
}

/** Minutes since local midnight of `HH:MM`; `24:00` only where `allowMidnightEnd`. */
function minutesOf(v: unknown, path: string, allowMidnightEnd: boolean): number {
  if (typeof v === 'string') {
    if (allowMidnightEnd && v === '24:00') return MINUTES_PER_DAY;
    const m = TIME.exec(v);
    if (m) return Number(m[1]) * 60 + Number(m[2]);
  }
  const range = allowMidnightEnd ? '00:00 to 24:00' : '00:00 to 23:59';
  throw new Invalid(path, `must be a 24-hour time HH:MM (${range}), got ${shown(v)}`);
}

function isCalendarDate(v: string): boolean {
  const m = DATE.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

function rangesOf(v: unknown, path: string): OpeningRange[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Invalid(path, 'must be an array of {start, end} ranges');
  if (v.length > MAX_RANGES_PER_DAY) throw new Invalid(path, `has ${v.length} ranges; at most ${MAX_RANGES_PER_DAY}`);
  const ranges = v.map((r: unknown, i) => {
    const at = `${path}[${i}]`;
    if (!isObj(r)) throw new Invalid(at, 'must be an object {start: "HH:MM", end: "HH:MM"}');
    onlyFields(r, RANGE_FIELDS, at);
    const start = minutesOf(r['start'], `${at}.start`, false);
    const end = minutesOf(r['end'], `${at}.end`, true);
    if (end <= start) throw new Invalid(`${at}.end`, `must be later than start (${String(r['start'])}); a range cannot pass midnight, split it in two days`);
    return { index: i, start, end, range: { start: r['start'] as string, end: r['end'] as string } };
  });
  const sorted = [...ranges].sort((a, b) => a.start - b.start || a.index - b.index);
  for (let i = 1; i < sorted.length; i += 1) {
    const prev = sorted[i - 1];
    const cur = sorted[i];
    if (prev && cur && cur.start < prev.end) {
      const [first, second] = prev.index < cur.index ? [prev, cur] : [cur, prev];
      throw new Invalid(`${path}[${second.index}]`, `overlaps ${path}[${first.index}] (${first.range.start}-${first.range.end})`);
    }
  }
  return sorted.map((r) => r.range);
}

function weeklyOf(v: unknown, path: string): Record<Weekday, OpeningRange[]> {
  if (!isObj(v)) throw new Invalid(path, `must be an object with the days ${WEEKDAYS.join(', ')}`);
  onlyFields(v, WEEKDAYS, path);
  const weekly = {} as Record<Weekday, OpeningRange[]>;
  for (const day of WEEKDAYS) weekly[day] = rangesOf(v[day], `${path}.${day}`);
  return weekly;
}

function holidaysOf(v: unknown, path: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new Invalid(path, 'must be an array of dates YYYY-MM-DD');
  if (v.length > MAX_HOLIDAYS) throw new Invalid(path, `has ${v.length} dates; at most ${MAX_HOLIDAYS}`);
  v.forEach((d: unknown, i) => {
    if (typeof d !== 'string' || !isCalendarDate(d)) throw new Invalid(`${path}[${i}]`, `must be a date YYYY-MM-DD, got ${shown(d)}`);
  });
  return [...new Set(v as string[])].sort();
}

/**
 * Checks a schedule as a client sent it and returns it complete (every weekday, ranges sorted, time zone
 * filled in with `defaultTimeZone`). null or undefined is "always open". Failures name the path, e.g.
 * `schedule.weekly.mon[1].end`.
 */
export function parseSchedule(input: unknown, defaultTimeZone: string, path = 'schedule'): ScheduleCheck {
  try {
    if (input === undefined || input === null) return { ok: true, schedule: null };
    if (!isObj(input)) throw new Invalid(path, 'must be an object {timeZone?, weekly, holidays?} or null (always open)');
    onlyFields(input, SCHEDULE_FIELDS, path);
    const given = input['timeZone'] ?? defaultTimeZone;
    const zone = typeof given === 'string' ? ianaTimeZone(given) : undefined;
    if (zone === undefined) {
      throw new Invalid(`${path}.timeZone`, `must be an IANA time zone such as Asia/Seoul, got ${shown(given)}`);
    }
    if (input['weekly'] === undefined) throw new Invalid(`${path}.weekly`, 'is required (days without ranges are closed)');
    const weekly = weeklyOf(input['weekly'], `${path}.weekly`);
    const holidays = holidaysOf(input['holidays'], `${path}.holidays`);
    return { ok: true, schedule: { timeZone: zone, weekly, holidays } };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, path: error.path, message: error.message };
    throw error;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The local date, weekday and minute of the day of an instant in a time zone. */
export function localTimeIn(zone: string, epochMs: number): { date: string; weekday: Weekday; minutes: number } {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const p of formatterFor(zone).formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  const weekday = (parts.weekday ?? '').toLowerCase().slice(0, 3) as Weekday;
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    weekday,
    minutes: Number(parts.hour) * 60 + Number(parts.minute),
  };
}

/** Whether consultations are within hours at `epochMs`: always with no schedule; never on a holiday. */
export function isOpenAt(schedule: ConsultationSchedule | null, epochMs: number): boolean {
  if (!schedule) return true;
  const local = localTimeIn(schedule.timeZone, epochMs);
  if (schedule.holidays.includes(local.date)) return false;
  return (schedule.weekly[local.weekday] ?? []).some((r) => {
    const start = minutesOf(r.start, 'start', false);
    const end = minutesOf(r.end, 'end', true);
    return local.minutes >= start && local.minutes < end;
  });
}
