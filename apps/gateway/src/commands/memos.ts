import { chmodSync, closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';

export interface Memo {
  /** ISO 8601 */
  at: string;
  by: string;
  text: string;
}

/** The memos kept per customer: the latest, not a history. */
export const MEMOS_KEPT = 20;
export const MEMO_LONGEST = 1_000;

/**
 * Agents' memos on customers (`/cs-memo`), per `<channel>:<customer>`, in a file readable by its owner only (they
 * may say anything about a customer). Written whole, to a temporary file renamed over it.
 */
export class Memos {
  private readonly byCustomer: Record<string, Memo[]>;

  constructor(private readonly path: string) {
    this.byCustomer = read(path);
  }

  of(channel: string, customer: string): readonly Memo[] {
    return this.byCustomer[`${channel}:${customer}`] ?? [];
  }

  add(channel: string, customer: string, memo: Memo): void {
    const key = `${channel}:${customer}`;
    this.byCustomer[key] = [...(this.byCustomer[key] ?? []), memo].slice(-MEMOS_KEPT);
    const temporary = `${this.path}.${process.pid}.tmp`;
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(this.byCustomer, null, 1)}\n`);
      // on disk before it replaces the file: a power cut leaves the old memos or the new, never an empty file
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.path);
  }
}

function read(path: string): Record<string, Memo[]> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`the memos file ${path} cannot be read: ${(error as Error).message}`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
    const memos = Object.create(null) as Record<string, Memo[]>;
    for (const [customer, list] of Object.entries(parsed)) {
      if (!Array.isArray(list) || !list.every(isMemo)) throw new Error(`the memos of ${customer} are not a list of {at, by, text}`);
      memos[customer] = list;
    }
    return memos;
  } catch (error) {
    throw new Error(`the memos file ${path} is damaged (${(error as Error).message}): move it away to start without memos`);
  }
}

function isMemo(value: unknown): value is Memo {
  const memo = value as Partial<Memo> | null;
  return typeof memo?.at === 'string' && !Number.isNaN(Date.parse(memo.at)) && typeof memo.by === 'string' && typeof memo.text === 'string';
}
