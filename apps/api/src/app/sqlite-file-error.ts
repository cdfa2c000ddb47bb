import { join } from 'node:path';
import { SQLITE_FILE_NAME } from '@brandwire/store';
import type { Config } from '../config/config';

/** The embedded database's file could not be opened or written at start-up (read-only, another user's, not SQLite). */
export class SqliteFileError extends Error {
  override readonly name = 'SqliteFileError';
}

/** SQLite's failure said in one line naming the file; any other error as it is. */
export function asSqliteFileError(error: unknown, config: Config): unknown {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (config.databaseUrl !== undefined || typeof code !== 'string' || !code.startsWith('SQLITE_')) return error;
  const file = join(config.dataDir, SQLITE_FILE_NAME);
  return new SqliteFileError(`the SQLite database ${file} cannot be used: ${(error as Error).message} (${code})`, { cause: error });
}
