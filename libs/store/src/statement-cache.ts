import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Enough for every distinct SQL text the service runs, with room for the multi-row inserts of varying width. */
const DEFAULT_CAPACITY = 512;

/**
 * Kysely prepares each statement anew, and preparing costs better-sqlite3 about as much as running a small
 * statement; the service runs the same few dozen SQL texts all day. This keeps prepared statements by SQL text,
 * least recently used dropped first. Sharing one is safe because better-sqlite3 runs a statement to completion
 * before returning (Kysely's streaming, which would hold one open, is not used).
 */
export function withStatementCache(db: BetterSqlite3.Database, capacity = DEFAULT_CAPACITY): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
      cache.clear();
      db.close();
    },
    prepare(sql: string): SqliteStatement {
      let statement = cache.get(sql);
      if (statement) {
        cache.delete(sql);
      } else {
        statement = db.prepare(sql);
        if (cache.size >= capacity) cache.delete(cache.keys().next().value as string);
      }
      cache.set(sql, statement);
      return statement as unknown as SqliteStatement;
    },
  };
}
