import { isoWithOffset } from '@brandwire/domain';

const HOUR_MS = 3_600_000;
const OFFSET_AT_END = /([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/;
const MAX_CACHED_HOURS = 100_000;

/**
 * `isoWithOffset` for many times at once (a bulk read formats a million line times): the zone's offset is
 * looked up once per hour and reused for every time in that hour when it is the same at both ends of the
 * hour; an hour with a transition inside is formatted time by time. Same output as `isoWithOffset`.
 */
export class ZonedTimes {
  /** per hour: the offset in ms and as text, or null when it changes within that hour */
  private readonly hours = new Map<number, { ms: number; text: string } | null>();

  constructor(readonly timeZone: string) {}

  iso(ms: number): string {
    const hour = Math.floor(ms / HOUR_MS);
    let offset = this.hours.get(hour);
    if (offset === undefined) {
      offset = this.steadyOffset(hour);
      if (this.hours.size >= MAX_CACHED_HOURS) this.hours.clear();
      this.hours.set(hour, offset);
    }
    if (offset === null) return isoWithOffset(ms, this.timeZone);
    return `${new Date(ms + offset.ms).toISOString().slice(0, -1)}${offset.text}`;
  }

  private steadyOffset(hour: number): { ms: number; text: string } | null {
    const first = offsetOf(isoWithOffset(hour * HOUR_MS, this.timeZone));
    const last = offsetOf(isoWithOffset((hour + 1) * HOUR_MS - 1, this.timeZone));
    return first !== undefined && last !== undefined && first.text === last.text ? first : null;
  }
}

function offsetOf(iso: string): { ms: number; text: string } | undefined {
  const match = OFFSET_AT_END.exec(iso);
  if (!match) return undefined;
  const [text, sign, hh, mm, ss] = match;
  const seconds = Number(hh) * 3600 + Number(mm) * 60 + Number(ss ?? 0);
  return { ms: (sign === '-' ? -seconds : seconds) * 1000, text: text ?? '' };
}
