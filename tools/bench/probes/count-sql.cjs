'use strict';
/**
 * Preload for the service (`node --require tools/bench/probes/count-sql.cjs apps/api/dist/main.js`):
 * counts the SQL statements better-sqlite3 prepares, by text, without changing what they do. Writes the
 * counts as JSON to $COUNT_SQL_FILE on SIGUSR2 and resets them, so a probe can count what N requests cost.
 */
const { writeFileSync } = require('node:fs');
const Module = require('node:module');

const counts = new Map();
const patched = new WeakSet();
function patch(Database) {
  if (!Database || !Database.prototype || patched.has(Database.prototype)) return;
  patched.add(Database.prototype);
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function countedPrepare(sql, ...rest) {
    counts.set(sql, (counts.get(sql) || 0) + 1);
    return prepare.call(this, sql, ...rest);
  };
}
const load = Module._load;
Module._load = function countingLoad(request, ...rest) {
  const exported = load.call(this, request, ...rest);
  if (request === 'better-sqlite3' || request === 'better-sqlite3-napi') patch(exported);
  return exported;
};
process.on('SIGUSR2', () => {
  const file = process.env.COUNT_SQL_FILE;
  if (file) writeFileSync(file, JSON.stringify([...counts].sort((a, b) => b[1] - a[1]), null, 1));
  counts.clear();
});
