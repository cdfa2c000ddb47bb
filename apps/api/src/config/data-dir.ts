import { type Stats, constants, accessSync, mkdirSync, statSync } from 'node:fs';
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
 * Makes the data folder when it is missing, the owner's alone (0700), and refuses one the SQLite store could not
 * make or write, or one other users may write to, in one line naming BRANDWIRE_DATA_DIR: the store's own failure
 * (in mkdir, or in SQLite opening a file) would come with a stack and no variable's name.
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
  if (path !== dataDir) {
    try {
      mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    } catch (error) {
      // root may write anywhere, yet some file systems take no folder (sysfs: EPERM)
      throw new ConfigError(`${variable} cannot be made (${codeOf(error)})`);
    }
  }
  refuseSharedFolder(dataDir, variable);
}

/**
 * Whoever may write to the folder may rename or replace the database files in it, whatever their own modes: a
 * folder every user may write to is refused rather than changed, since it may be one others rely on (such as /tmp).
 * A folder its group may write to is taken (a group shared on purpose: a setgid folder, a volume's fsGroup), and so
 * is one others may only read: the database files in it are 0600.
 */
function refuseSharedFolder(dataDir: string, variable: string): void {
  const mode = statSync(dataDir).mode & 0o7777;
  if ((mode & 0o002) === 0) return;
  throw new ConfigError(
    `${variable} is a folder every user may write to (mode ${mode.toString(8).padStart(4, '0')}), who could replace the database files: give the service a folder only its user (or its group) may write to (chmod 700 ${dataDir})`,
  );
}
