import { type Stats, constants, accessSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { ConfigError } from './config';

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? String(error);
}

/** The data folder itself, or the nearest folder above it that exists, where the store would make it. */
function nearestExisting(dataDir: string): { path: string; stats: Stats } {
  let path = dataDir;
  for (;;) {
    try {
      return { path, stats: statSync(path) };
    } catch (error) {
      const code = codeOf(error);
      // ENOTDIR: a file somewhere above; going up finds it, for the message
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || dirname(path) === path) {
        throw new ConfigError(`BRANDWIRE_DATA_DIR=${dataDir} cannot be used (${code})`);
      }
      path = dirname(path);
    }
  }
}

/**
 * Refuses a data folder the SQLite store could not make or write, in one line naming BRANDWIRE_DATA_DIR: the
 * store's own failure (in mkdir, or in SQLite opening a file) would come with a stack and no variable's name.
 */
export function checkDataDir(dataDir: string): void {
  const variable = `BRANDWIRE_DATA_DIR=${dataDir}`;
  const { path, stats } = nearestExisting(dataDir);
  if (!stats.isDirectory()) {
    throw new ConfigError(path === dataDir ? `${variable} is not a folder (EEXIST)` : `${variable} is not a folder: ${path} is a file (ENOTDIR)`);
  }
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
  } catch (error) {
    throw new ConfigError(
      path === dataDir
        ? `${variable} is a folder this service may not write to (${codeOf(error)})`
        : `${variable} cannot be made: this service may not write to ${path} (${codeOf(error)})`,
    );
  }
}
