/** better-sqlite3 as the service loads it for this Node (the store's own choice when its build has one). */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export function sqliteDriver(repoRoot) {
  const storeHelper = join(repoRoot, 'libs/store/dist/sqlite-driver.js');
  const require = createRequire(join(repoRoot, 'libs/store/package.json'));
  // libs/store picks better-sqlite3 12 (node-gyp) on Node 20 and 13 (N-API, "better-sqlite3-napi") from Node 22
  if (existsSync(storeHelper)) return require(storeHelper).sqliteDriver();
  return require('better-sqlite3');
}

/** "better-sqlite3 12.11.1" or "better-sqlite3-napi 13.2.0", whichever this Node loads. */
export function sqliteDriverVersion(repoRoot) {
  const require = createRequire(join(repoRoot, 'libs/store/package.json'));
  const name = Number(process.versions.node.split('.')[0]) >= 22 && existsSync(join(repoRoot, 'node_modules/better-sqlite3-napi')) ? 'better-sqlite3-napi' : 'better-sqlite3';
  try {
    return `${name} ${require(`${name}/package.json`).version}`;
  } catch {
    return name;
  }
}
