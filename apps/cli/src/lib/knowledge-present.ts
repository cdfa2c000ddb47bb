import type { BatchReport, BuildReport, JsonValue, QueryResultJson, SearchHit } from '@brandwire/knowledge';
import { INSTALL_WITH_GATEWAY_HINT } from './knowledge-errors';
import { colorEnabled, fields, formatIsoTimestamp, oneLine, paint, table } from './output';

/** Text for people of the knowledge commands' results (the JSON is the result itself). */

function cell(value: JsonValue): string {
  if (value === null) return '';
  if (typeof value === 'string') return oneLine(value, 200);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return oneLine(JSON.stringify(value), 200);
}

/** Every column of a query result as a table, and the row count. */
export async function presentQueryResult(result: QueryResultJson): Promise<string> {
  const count = `(${result.rows.length} row${result.rows.length === 1 ? '' : 's'})`;
  if (result.columns.length === 0) return count;
  const body = await table(result.columns, result.rows.map((row) => row.map(cell)));
  const inexact = result.inexact?.length ? `\nColumns with integers beyond 2^53 shown as the nearest double: ${result.inexact.join(', ')}` : '';
  return `${body}\n${count}${inexact}`;
}

/** "#1 ok (3 rows)" lines, each followed by its rows. */
export async function presentBatch(report: BatchReport): Promise<string> {
  const color = colorEnabled();
  const parts: string[] = [];
  for (const [i, line] of report.lines.entries()) {
    const statement = report.statements[i];
    parts.push(statement && !statement.ok ? paint(line, 'red', color) : line);
    if (statement?.result && statement.result.columns.length > 0) parts.push(await presentQueryResult(statement.result));
  }
  return parts.join('\n');
}

export async function presentHits(hits: readonly SearchHit[], query: string): Promise<string> {
  if (hits.length === 0) return `Nothing in the graph matches "${query}".`;
  // a hit by words (no ranked hit) has no score: it holds every word of the query
  const rows = hits.map((h) => [h.match === 'words' ? 'words' : h.score.toFixed(2), h.kind, h.role, h.convId, h.turn, h.ts ? formatIsoTimestamp(h.ts) : '', oneLine(h.text, 70)]);
  return table(['SCORE', 'KIND', 'ROLE', 'CONV ID', 'TURN', 'TIME', 'TEXT'], rows);
}

function counts(record: Record<string, number>): string {
  const entries = Object.entries(record);
  return entries.length === 0 ? 'none' : entries.map(([name, n]) => `${name} ${n}`).join(', ');
}

export function presentBuild(report: BuildReport): string {
  const lines = [
    `Read ${report.conversations} conversations (${report.messages} messages) in ${(report.ms / 1000).toFixed(1)} s: ${report.newConversations} new, ${report.grownConversations} grown.`,
    fields([
      ['nodes added', counts(report.addedNodes)],
      ['relations added', counts(report.addedRelations)],
    ]),
  ];
  if (report.removedResponses > 0) lines.push(`Removed ${report.removedResponses} response${report.removedResponses === 1 ? '' : 's'} whose message was deleted since an earlier build.`);
  for (const skipped of report.skipped) lines.push(`Skipped ${skipped.convId}: ${skipped.reason}`);
  return lines.join('\n');
}

export interface KnowledgeStatusView {
  installed: boolean;
  enabled: boolean;
  queryPort: number;
  graphPath: string;
  /** where the figures came from: the running gateway, the graph file opened read-only, or nowhere (no graph yet) */
  via: 'gateway' | 'graph' | 'none';
  /** with `via` graph: the pid of this config folder's gateway, which runs but whose query API did not answer */
  unansweredGatewayPid?: number;
  /** with `via` graph: the pid of this config folder's gateway, which runs but whose token is not known (its state file is damaged or gone) */
  tokenlessGatewayPid?: number;
  kuzuVersion: string | null;
  nodes: Record<string, number>;
  relations: Record<string, number>;
  ftsIndexes: string[];
}

function readThrough(status: KnowledgeStatusView): string {
  switch (status.via) {
    case 'gateway':
      return `the gateway (port ${status.queryPort})`;
    case 'graph':
      if (status.tokenlessGatewayPid !== undefined) {
        return `the graph file, read-only beside the gateway (pid ${status.tokenlessGatewayPid}), whose state file with its access token is damaged or gone (\`brandwire gateway restart\` writes a new one)`;
      }
      return status.unansweredGatewayPid === undefined
        ? 'the graph file (the gateway is not running)'
        : `the graph file, read-only beside the gateway (pid ${status.unansweredGatewayPid}), which runs but whose query API did not answer just now`;
    case 'none':
      return '-';
    default: {
      const unreachable: never = status.via;
      throw new Error(`unknown reader ${String(unreachable)}`);
    }
  }
}

export async function presentStatus(status: KnowledgeStatusView): Promise<string> {
  const head = fields([
    ['installed', status.installed ? 'yes' : `no (${status.via === 'gateway' ? INSTALL_WITH_GATEWAY_HINT : 'run `brandwire knowledge install`'})`],
    ['enabled', status.enabled ? 'yes' : 'no'],
    ['graph', status.graphPath],
    ['query port', status.queryPort],
    ['read through', readThrough(status)],
    ['kuzu', status.kuzuVersion],
    ['full-text indexes', status.installed ? status.ftsIndexes.join(', ') || 'none' : undefined],
  ]);
  if (!status.installed) return head;
  const nodes = Object.entries(status.nodes).map(([name, n]) => ['node', name, n]);
  const relations = Object.entries(status.relations).map(([name, n]) => ['relation', name, n]);
  return `${head}\n${await table(['KIND', 'TABLE', 'COUNT'], [...nodes, ...relations])}`;
}
