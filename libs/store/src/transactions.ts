import { CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { Dialect } from './open-store';
import type { Database } from './schema';

/** How the repositories write: a unit of work that is committed, durably, before its promise resolves. */
export interface Transactions {
  run<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
}

export function transactionsFor(db: Kysely<Database>, dialect: Dialect): Transactions {
  return dialect === 'sqlite' ? new GroupCommit(db) : { run: (work) => db.transaction().execute(work) };
}

interface Queued {
  work: (trx: Transaction<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Group commit for the embedded SQLite file. Every commit waits for the disk (synchronous=FULL), and with one
 * connection on the event loop's thread that wait stops the whole service: at a few hundred writes a second the
 * syncs alone fill the second. Units of work that arrive together therefore share one transaction and one sync,
 * each inside its own savepoint, so a unit that fails is rolled back alone, exactly as its own transaction would
 * be; none resolves before the commit that holds it. Under light load a batch is a single unit.
 */
export class GroupCommit implements Transactions {
  private queue: Queued[] = [];
  private flushing = false;

  constructor(private readonly db: Kysely<Database>) {}

  run<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.flushing) {
        this.flushing = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      let outcomes: Outcome[];
      try {
        outcomes = await this.db.transaction().execute((trx) => runEach(trx, batch));
      } catch (error) {
        // the commit itself failed (or the transaction broke): nothing of the batch was written
        for (const item of batch) item.reject(error);
        continue;
      }
      outcomes.forEach((outcome, i) => {
        const item = batch[i] as Queued;
        if (outcome.ok) item.resolve(outcome.value);
        else item.reject(outcome.error);
      });
    }
    this.flushing = false;
  }
}

// the same text on both dialects, compiled once rather than per unit
const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const RELEASE = CompiledQuery.raw('release savepoint unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to savepoint unit');

async function runEach(trx: Transaction<Database>, batch: readonly Queued[]): Promise<Outcome[]> {
  if (batch.length === 1) {
    // alone in its transaction: a failure rolls the transaction back, as it always did
    const only = batch[0] as Queued;
    return [{ ok: true, value: await only.work(trx) }];
  }
  const outcomes: Outcome[] = [];
  for (const item of batch) {
    await trx.executeQuery(SAVEPOINT);
    try {
      const value = await item.work(trx);
      await trx.executeQuery(RELEASE);
      outcomes.push({ ok: true, value });
    } catch (error) {
      await trx.executeQuery(ROLLBACK_TO);
      await trx.executeQuery(RELEASE);
      outcomes.push({ ok: false, error });
    }
  }
  return outcomes;
}
