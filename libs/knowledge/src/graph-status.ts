/** Schema install (idempotent) and what the graph holds. */
import { kuzuVersion, type KuzuConnection } from './kuzu-native';
import { listFtsIndexes } from './fts-indexes';
import { ensureFtsIndexes } from './fts-repair';
import { rowsOf, runAll, runStatement } from './kuzu-run';
import { NODE_TABLES, REL_TABLES, SCHEMA_STATEMENTS } from './schema';

export interface InstallReport {
  /** tables that did not exist before */
  createdTables: string[];
  /** full-text indexes that did not exist before */
  createdIndexes: string[];
}

export async function tableNames(conn: KuzuConnection): Promise<Set<string>> {
  return new Set((await rowsOf(conn, 'CALL SHOW_TABLES() RETURN name')).map((r) => String(r['name'])));
}

export async function ftsIndexNames(conn: KuzuConnection): Promise<string[]> {
  return (await listFtsIndexes(conn)).map((i) => i.name).sort();
}

export async function isInstalled(conn: KuzuConnection): Promise<boolean> {
  const tables = await tableNames(conn);
  return [...NODE_TABLES, ...REL_TABLES].every((t) => tables.has(t));
}

export async function installSchema(conn: KuzuConnection): Promise<InstallReport> {
  const before = await tableNames(conn);
  await runStatement(conn, 'LOAD EXTENSION fts');
  await runAll(conn, SCHEMA_STATEMENTS);
  const createdIndexes = await ensureFtsIndexes(conn);
  return { createdTables: [...NODE_TABLES, ...REL_TABLES].filter((t) => !before.has(t)), createdIndexes };
}

export interface Counts {
  installed: boolean;
  kuzuVersion: string;
  nodes: Record<string, number>;
  relations: Record<string, number>;
  ftsIndexes: string[];
}

export async function countAll(conn: KuzuConnection): Promise<Counts> {
  const tables = await tableNames(conn);
  const nodes: Record<string, number> = {};
  const relations: Record<string, number> = {};
  for (const t of NODE_TABLES) {
    if (tables.has(t)) nodes[t] = Number((await rowsOf(conn, `MATCH (n:${t}) RETURN count(n) AS n`))[0]?.['n'] ?? 0);
  }
  for (const t of REL_TABLES) {
    if (tables.has(t)) relations[t] = Number((await rowsOf(conn, `MATCH ()-[r:${t}]->() RETURN count(r) AS n`))[0]?.['n'] ?? 0);
  }
  const installed = [...NODE_TABLES, ...REL_TABLES].every((t) => tables.has(t));
  return { installed, kuzuVersion: kuzuVersion(), nodes, relations, ftsIndexes: installed ? await ftsIndexNames(conn) : [] };
}
