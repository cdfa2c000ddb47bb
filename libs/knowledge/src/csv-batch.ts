/**
 * CSV files for Kuzu's bulk `COPY FROM`, one per node table or relation pair, written in 1 MiB chunks.
 * Strings are quoted ("" inside) unless they are plain ids, numbers or times; null is an empty unquoted field; a file that holds a line break
 * inside a quoted field is marked so it is copied with `parallel=false` (Kuzu's parallel reader refuses those).
 */
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CsvValue } from './conversation-rows';

const CHUNK_BYTES = 1 << 20;
const QUOTE = 0x22;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
/** Ids, numbers and timestamps: written unquoted, which Kuzu parses faster (never empty: "" must stay quoted). */
const PLAIN = /^[0-9A-Za-z_.:+#/-]+$/;

export interface CsvFile {
  stream: string;
  path: string;
  rows: number;
  /** some quoted field holds a line break */
  multiline: boolean;
}

/** A file being written: fields go straight into one reused buffer (no string per row: a million rows make GC the cost). */
interface OpenFile extends CsvFile {
  fd: number;
  buffer: Buffer;
  used: number;
}

export class CsvBatch {
  private readonly files = new Map<string, OpenFile>();

  constructor(
    private readonly dir: string,
    private readonly headers: ReadonlyMap<string, readonly string[]>,
  ) {}

  add(stream: string, row: readonly CsvValue[]): void {
    const file = this.files.get(stream) ?? this.open(stream);
    for (let i = 0; i < row.length; i++) {
      if (i > 0) this.byte(file, COMMA);
      const value = row[i];
      if (value === null) continue;
      if (typeof value !== 'string') {
        this.text(file, String(value));
        continue;
      }
      if (value.length <= 64 && PLAIN.test(value)) {
        this.text(file, value);
        continue;
      }
      if (!file.multiline && (value.includes('\n') || value.includes('\r'))) file.multiline = true;
      this.byte(file, QUOTE);
      this.text(file, value.includes('"') ? value.replaceAll('"', '""') : value);
      this.byte(file, QUOTE);
    }
    this.byte(file, NEWLINE);
    file.rows += 1;
  }

  /** Writes out and closes every file; returns the non-empty ones. */
  finish(): CsvFile[] {
    const done: CsvFile[] = [];
    for (const file of this.files.values()) {
      this.write(file);
      closeSync(file.fd);
      done.push({ stream: file.stream, path: file.path, rows: file.rows, multiline: file.multiline });
    }
    this.files.clear();
    return done;
  }

  /** Removes the files of a finished batch. */
  static remove(files: readonly CsvFile[]): void {
    for (const f of files) rmSync(f.path, { force: true });
  }

  /** Closes and removes whatever is still open (after a failure). */
  discard(): void {
    CsvBatch.remove(this.finish());
  }

  private open(stream: string): OpenFile {
    const header = this.headers.get(stream);
    if (header === undefined) throw new Error(`no CSV header for ${stream}`);
    const path = join(this.dir, `${stream}.csv`);
    const file: OpenFile = { stream, path, rows: 0, multiline: false, fd: openSync(path, 'w'), buffer: Buffer.allocUnsafe(CHUNK_BYTES), used: 0 };
    this.files.set(stream, file);
    this.text(file, `${header.join(',')}\n`);
    return file;
  }

  private byte(file: OpenFile, byte: number): void {
    if (file.used === file.buffer.length) this.write(file);
    file.buffer[file.used++] = byte;
  }

  private text(file: OpenFile, text: string): void {
    if (file.used + text.length * 3 > file.buffer.length) {
      this.write(file);
      if (text.length * 3 > file.buffer.length) {
        writeSync(file.fd, text);
        return;
      }
    }
    file.used += file.buffer.write(text, file.used);
  }

  private write(file: OpenFile): void {
    let done = 0;
    while (done < file.used) done += writeSync(file.fd, file.buffer, done, file.used - done);
    file.used = 0;
  }
}
