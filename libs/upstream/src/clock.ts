/**
 * A clock that can be shifted forward (or set to any offset) from the real time.
 * One instance is shared by the service and an in-process sandbox messenger, so both see the same "now".
 */
export class ShiftableClock {
  private offset: number;

  constructor(
    offsetMs = 0,
    private readonly base: () => number = Date.now,
  ) {
    this.offset = offsetMs;
  }

  /** Epoch milliseconds: the base clock plus the offset. */
  now(): number {
    return this.base() + this.offset;
  }

  /** Moves the clock forward by `ms` (>= 0). */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance expects a finite number >= 0, got ${ms}`);
    this.offset += ms;
  }

  get offsetMs(): number {
    return this.offset;
  }

  /** Sets the offset from the base clock (may go back, e.g. to reset a test). */
  setOffset(ms: number): void {
    if (!Number.isFinite(ms)) throw new RangeError(`offset must be finite, got ${ms}`);
    this.offset = ms;
  }
}
