import { DomainError } from './errors';

const MAX_EPOCH_MS = 9_999_999_999_999; // the largest value that fits in 13 digits
const MAX_COUNTER = 999;
const SUFFIX_LENGTH = 6;
const SUFFIX_SPACE = 36 ** SUFFIX_LENGTH;
const SERIAL_PATTERN = /^bw-(\d{13})(\d{3})-[0-9a-z]{6}$/;

/**
 * Makes serials `bw-<13-digit epoch ms><3-digit counter>-<6 base36 chars>` (26 characters, within the messenger's 30).
 * For one generator the serials are strictly increasing in string order, even when the clock goes backwards:
 * the time part never goes below the last one issued, and a full counter moves on to the next millisecond.
 */
export class SerialGenerator {
  private lastMs = -1;
  private counter = 0;

  constructor(
    private readonly now: () => number,
    private readonly random: () => number,
  ) {}

  next(): string {
    const clock = Math.floor(this.now());
    if (!Number.isFinite(clock) || clock < 0 || clock > MAX_EPOCH_MS) {
      throw new RangeError(`Clock value out of range for a serial: ${clock}`);
    }
    let ms = Math.max(clock, this.lastMs);
    let counter = 0;
    if (ms === this.lastMs) {
      counter = this.counter + 1;
      if (counter > MAX_COUNTER) {
        ms += 1;
        counter = 0;
      }
    }
    if (ms > MAX_EPOCH_MS) throw new RangeError('Serial time part exhausted');
    this.lastMs = ms;
    this.counter = counter;
    return `bw-${String(ms).padStart(13, '0')}${String(counter).padStart(3, '0')}-${this.suffix()}`;
  }

  private suffix(): string {
    const n = Math.min(SUFFIX_SPACE - 1, Math.max(0, Math.floor(this.random() * SUFFIX_SPACE)));
    return (Number.isFinite(n) ? n : 0).toString(36).padStart(SUFFIX_LENGTH, '0');
  }
}

export function isSerial(s: string): boolean {
  return SERIAL_PATTERN.test(s);
}

/** The epoch ms encoded in a serial (may be a few ms ahead of the send when the per-ms counter overflowed). */
export function serialTimeMs(serial: string): number {
  const match = SERIAL_PATTERN.exec(serial);
  if (!match) throw new DomainError('BAD_REQUEST', `Not a serial: ${serial}`);
  return Number(match[1]);
}
