import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * The last event relayed of each channel to each target (keyed by service endpoint, channel and target), kept in a file (written whole, then renamed) so that a restarted gateway
 * goes on where it stopped: nothing lost, and at most the event being relayed at a crash relayed again.
 */
export class RelayCursors {
  private readonly cursors: Record<string, string>;

  constructor(private readonly file: string) {
    this.cursors = readCursors(file);
  }

  of(key: string): string | undefined {
    return this.cursors[key];
  }

  forget(key: string): void {
    delete this.cursors[key];
    this.write();
  }

  keep(key: string, eventId: string): void {
    this.cursors[key] = eventId;
    this.write();
  }

  private write(): void {
    mkdirSync(dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(this.cursors)}\n`, { mode: 0o600 });
    renameSync(temporary, this.file);
  }
}

function readCursors(file: string): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${file} is not the relay's cursors (damaged?): move it away, and each channel's relay starts at its end`);
  }
  return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
