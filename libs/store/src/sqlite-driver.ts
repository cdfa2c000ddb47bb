import type BetterSqlite3 from 'better-sqlite3';

type SqliteConstructor = typeof BetterSqlite3;

/**
 * better-sqlite3 for the running Node: 12.x (node-gyp, built at install) on Node 20 and 21, and 13.x (N-API,
 * prebuilt in its package) from Node 22. 12.x aborts at process exit on Node 24 (its wrappers' destructors run
 * after Node has torn down the environment: "Assertion failed: (env) != nullptr"), and 13.x does not load on
 * Node 20. Both have the same API.
 */
export function sqliteDriver(nodeVersion: string = process.versions.node): SqliteConstructor {
  const major = Number(nodeVersion.split('.')[0]);
  return (major >= 22 ? require('better-sqlite3-napi') : require('better-sqlite3')) as SqliteConstructor;
}
