/**
 * Moves a finished CSV batch into the graph with Kuzu's bulk `COPY FROM`: node tables first, then relations
 * (whose endpoints must exist), then the grown conversations' new figures through `LOAD WITH HEADERS ... SET`,
 * all in one transaction.
 */
import type { CsvFile } from './csv-batch';
import type { KuzuConnection } from './kuzu-native';
import { runStatement } from './kuzu-run';
import { NODE_COLUMNS, NODE_TABLES, REL_PAIRS, relPairName } from './schema';

/** Stream of the Conversation rows that update nodes already in the graph. */
export const CONVERSATION_UPDATE = 'Conversation_update';

const UPDATE_TYPES = ['STRING', 'STRING', 'STRING', 'STRING', 'INT64', 'BOOLEAN', 'TIMESTAMP', 'TIMESTAMP', 'TIMESTAMP', 'INT64'];
const UPDATED = ['seq', 'ended', 'endedAt', 'lastActivity', 'lines'] as const;

/** CSV header of every stream: node columns, `from,to[,props]` for relation pairs, `u_`-prefixed for updates. */
export function csvHeaders(): Map<string, readonly string[]> {
  const headers = new Map<string, readonly string[]>();
  for (const table of NODE_TABLES) headers.set(table, NODE_COLUMNS[table]);
  for (const pair of REL_PAIRS) headers.set(relPairName(pair), ['from', 'to', ...pair.columns]);
  headers.set(CONVERSATION_UPDATE, NODE_COLUMNS.Conversation.map((c) => `u_${c}`));
  return headers;
}

function quotePath(path: string): string {
  return `'${path.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
}

function updateStatement(file: CsvFile): string {
  const columns = NODE_COLUMNS.Conversation.map((c, i) => `u_${c} ${UPDATE_TYPES[i] ?? 'STRING'}`).join(', ');
  const sets = [...UPDATED.map((c) => `c.${c} = u_${c}`), 'c.loadedAt = current_timestamp()'].join(', ');
  return `LOAD WITH HEADERS (${columns}) FROM ${quotePath(file.path)} (header=true, parallel=${String(!file.multiline)}) MATCH (c:Conversation {convId: u_convId}) SET ${sets}`;
}

/** COPY statements for the files of one batch, in the order they must run. */
export function copyStatements(files: readonly CsvFile[]): string[] {
  const byStream = new Map(files.map((f) => [f.stream, f]));
  const statements: string[] = [];
  for (const table of NODE_TABLES) {
    const file = byStream.get(table);
    if (file) statements.push(`COPY ${table}(${NODE_COLUMNS[table].join(', ')}) FROM ${quotePath(file.path)} (header=true, parallel=${String(!file.multiline)})`);
  }
  for (const pair of REL_PAIRS) {
    const file = byStream.get(relPairName(pair));
    if (file) statements.push(`COPY ${pair.rel} FROM ${quotePath(file.path)} (header=true, from='${pair.from}', to='${pair.to}')`);
  }
  const updates = byStream.get(CONVERSATION_UPDATE);
  if (updates) statements.push(updateStatement(updates));
  return statements;
}

/** Copies one batch in one transaction: a failure leaves none of it behind (a re-run then loads it again). */
export async function copyBatch(conn: KuzuConnection, files: readonly CsvFile[]): Promise<void> {
  await runStatement(conn, 'BEGIN TRANSACTION');
  try {
    for (const statement of copyStatements(files)) await runStatement(conn, statement);
    await runStatement(conn, 'COMMIT');
  } catch (error) {
    await rollback(conn);
    throw error;
  }
}

async function rollback(conn: KuzuConnection): Promise<void> {
  try {
    await runStatement(conn, 'ROLLBACK');
  } catch (error) {
    // Kuzu ends the transaction itself when a statement fails to bind; any other failure is real
    if (!/No active transaction/i.test((error as Error).message)) throw error;
  }
}
