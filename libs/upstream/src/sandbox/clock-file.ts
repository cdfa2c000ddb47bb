import { readFile, rename, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ShiftableClock } from '../clock';
import { messageOf } from './error-message';
import { Fields } from './snapshot-fields';
import { SandboxStateError } from './state-error';

const CLOCK_FILE = 'clock.json';

/** The clock's offset kept in `dir` (undefined when none is); throws SandboxStateError when it cannot be read. */
export async function readClockOffset(dir: string): Promise<number | undefined> {
  const file = join(dir, CLOCK_FILE);
  try {
    return Fields.of(JSON.parse(await readFile(file, 'utf8')), 'clock').number('offsetMs');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SandboxStateError(file, `is not a sandbox clock (${messageOf(err)})`);
  }
}

/** The clock file could not be written, so the clock was not moved. */
export class ClockNotKeptError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    // the file's name and the error's code only: the message reaches the keys of any brand, the data folder is the operator's
    super(`could not write ${basename(file)} (${detail}); the clock was not moved`);
  }
}

/**
 * Keeps the clock's offset in `clock.json`, apart from the snapshot and never taken away at start: written
 * whenever the sandbox moves the clock, so that after a crash the time still goes on from where it was (the
 * partner's records never see it go back).
 */
export class ClockKeeper {
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly dir: string,
    private readonly clock: ShiftableClock,
  ) {}

  /** Writes the current offset, after any write still going (they share the tmp file). */
  keep(): Promise<void> {
    return this.after(() => this.write(this.clock.offsetMs));
  }

  /**
   * Moves the clock by `ms` once its new offset is written: when the write fails the clock stays where it was
   * (so a partner that reads it, or shares it, never sees a time the next start would take back), and this
   * rejects with a ClockNotKeptError.
   */
  advance(ms: number): Promise<void> {
    return this.after(async () => {
      const offsetMs = this.clock.offsetMs + ms;
      try {
        await this.write(offsetMs);
      } catch (err) {
        throw new ClockNotKeptError(join(this.dir, CLOCK_FILE), (err as NodeJS.ErrnoException).code ?? messageOf(err));
      }
      this.clock.advance(ms);
    });
  }

  private after(step: () => Promise<void>): Promise<void> {
    const next = this.writing.catch(() => undefined).then(step);
    this.writing = next;
    return next;
  }

  private async write(offsetMs: number): Promise<void> {
    const file = join(this.dir, CLOCK_FILE);
    await writeFile(`${file}.tmp`, JSON.stringify({ offsetMs }), { mode: 0o600 });
    await rename(`${file}.tmp`, file);
  }
}
