/**
 * Bulk load: conversations are turned into CSV rows in a temp folder and moved in with `COPY FROM` every
 * `batchMessages` messages (never a query per row). What the graph already holds is read first, so a re-run
 * adds only new conversations and the new turns of grown ones, and never a node twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyBatch, CONVERSATION_UPDATE, csvHeaders } from './bulk-copy';
import { type GraphState, loadState } from './build-state';
import { conversationRow, type CsvValue, customerId, emitTurns, type Relink, relinkAfterWithdrawal, type RowContext, withdrawnTurns } from './conversation-rows';
import { CsvBatch } from './csv-batch';
import { FtsMaintenance } from './fts-maintenance';
import type { KuzuConnection } from './kuzu-native';
import { rowsOf } from './kuzu-run';
import { NODE_TABLES, REL_PAIRS, relPairName } from './schema';
import type { BuildOptions, BuildPhase, BuildReport, KnowledgeConversation } from './types';

const DEFAULT_BATCH_MESSAGES = 1_000_000;
const WITHDRAWN_PER_QUERY = 1_000;
const PROGRESS_EVERY = 1_000;
const EDGE_ANSWERED_BY =
  'UNWIND $edges AS e MATCH (i:Inquiry {id: e.i}), (r:Response {id: e.r}) WHERE NOT EXISTS { MATCH (i)-[:ANSWERED_BY]->(r) } ' +
  'CREATE (i)-[:ANSWERED_BY {turns: e.t}]->(r) RETURN count(*) AS n';
const EDGE_ENDED =
  'UNWIND $edges AS e MATCH (r:Response {id: e.r}), (c:Conversation {convId: e.c}) WHERE NOT EXISTS { MATCH (r)-[:ENDED]->(c) } ' +
  'CREATE (r)-[:ENDED]->(c) RETURN count(*) AS n';

const STREAM_TABLE = new Map<string, string>([
  ...NODE_TABLES.map((t): [string, string] => [t, t]),
  ...REL_PAIRS.map((p): [string, string] => [relPairName(p), p.rel]),
]);

class GraphBuilder {
  private readonly report: BuildReport = { conversations: 0, messages: 0, newConversations: 0, grownConversations: 0, addedNodes: {}, addedRelations: {}, removedResponses: 0, skipped: [], ms: 0 };
  /** Ids of turns loaded earlier whose message was deleted since */
  private readonly withdrawn: string[] = [];
  /** What the turns loaded earlier answer and end once the withdrawn responses are gone */
  private readonly relinks: Relink[] = [];
  private readonly batch: CsvBatch;
  private readonly ctx: RowContext;
  /** Conversation rows of this batch: new nodes, and updates of nodes loaded by an earlier batch or run */
  private readonly newRows = new Map<string, CsvValue[]>();
  private readonly updateRows = new Map<string, CsvValue[]>();
  private batchMessages = 0;
  private readonly sink = (stream: string, row: CsvValue[]): void => this.batch.add(stream, row);

  constructor(
    private readonly conn: KuzuConnection,
    private readonly state: GraphState,
    private readonly fts: FtsMaintenance,
    dir: string,
    private readonly options: BuildOptions,
  ) {
    this.batch = new CsvBatch(dir, csvHeaders());
    this.ctx = { attachmentHost: options.attachmentHost };
  }

  async run(conversations: AsyncIterable<KnowledgeConversation> | Iterable<KnowledgeConversation>): Promise<BuildReport> {
    const started = Date.now();
    const limit = this.options.batchMessages ?? DEFAULT_BATCH_MESSAGES;
    try {
      for await (const conv of conversations) {
        this.add(conv);
        if (this.report.conversations % PROGRESS_EVERY === 0) this.progress('reading');
        if (this.batchMessages >= limit) await this.flush();
      }
      await this.flush();
      await this.removeWithdrawn();
    } catch (error) {
      this.batch.discard();
      await this.restoreIndexesAfter(error as Error);
      throw error;
    }
    if (this.fts.pending) this.progress('indexing');
    await this.fts.restore();
    this.report.ms = Date.now() - started;
    this.progress('done');
    return this.report;
  }

  private add(conv: KnowledgeConversation): void {
    this.report.conversations += 1;
    this.report.messages += conv.lines.length;
    const prior = this.state.conversations.get(conv.convId);
    if (prior !== undefined && prior.channel !== conv.brand) {
      this.report.skipped.push({ convId: conv.convId, reason: `a conversation with this convId was loaded from channel ${prior.channel}` });
      return;
    }
    const withdrawn = prior === undefined ? [] : withdrawnTurns(conv, prior);
    if (prior !== undefined && withdrawn.length > 0) {
      this.withdrawn.push(...withdrawn);
      this.relinks.push(relinkAfterWithdrawal(conv, prior));
    }
    if (prior !== undefined && conv.lines.length <= prior.lines && (conv.ended === prior.ended || !conv.ended)) return;
    if (!this.state.channels.has(conv.brand)) {
      this.state.channels.add(conv.brand);
      this.sink('Channel', [conv.brand]);
    }
    const customer = customerId(conv.brand, conv.userKey);
    if (!this.state.customers.has(customer)) {
      this.state.customers.add(customer);
      this.sink('Customer', [customer, conv.brand, conv.userKey]);
      this.sink('HAS_CUSTOMER_Channel_Customer', [conv.brand, customer]);
    }
    emitTurns(conv, prior, this.ctx, this.sink);
    const row = conversationRow(conv);
    if (prior === undefined) {
      this.report.newConversations += 1;
      this.sink('HAS_CONVERSATION_Customer_Conversation', [customer, conv.convId]);
      this.newRows.set(conv.convId, row);
    } else if (this.newRows.has(conv.convId)) {
      this.newRows.set(conv.convId, row);
    } else {
      if (!this.updateRows.has(conv.convId)) this.report.grownConversations += 1;
      this.updateRows.set(conv.convId, row);
    }
    this.state.conversations.set(conv.convId, { channel: conv.brand, lines: Math.max(conv.lines.length, prior?.lines ?? 0), ended: conv.ended || prior?.ended === true });
    this.batchMessages += Math.max(0, conv.lines.length - (prior?.lines ?? 0));
  }

  private async flush(): Promise<void> {
    for (const row of this.newRows.values()) this.batch.add('Conversation', row);
    for (const row of this.updateRows.values()) this.batch.add(CONVERSATION_UPDATE, row);
    this.newRows.clear();
    this.updateRows.clear();
    this.batchMessages = 0;
    const files = this.batch.finish();
    if (files.length === 0) return;
    this.progress('loading');
    try {
      await this.fts.beforeCopy(files.filter((f) => f.stream === 'Inquiry' || f.stream === 'Response').reduce((n, f) => n + f.rows, 0));
      await copyBatch(this.conn, files);
    } finally {
      CsvBatch.remove(files);
    }
    for (const file of files) {
      const table = STREAM_TABLE.get(file.stream);
      if (table === undefined) continue;
      const counts = (NODE_TABLES as readonly string[]).includes(table) ? this.report.addedNodes : this.report.addedRelations;
      counts[table] = (counts[table] ?? 0) + file.rows;
    }
  }

  /**
   * A message deleted after its turn was loaded answers nothing any more: its Response node goes, with its
   * attachments, and what it answered or ended passes to the responses that remain.
   */
  private async removeWithdrawn(): Promise<void> {
    for (let i = 0; i < this.withdrawn.length; i += WITHDRAWN_PER_QUERY) {
      const candidates = this.withdrawn.slice(i, i + WITHDRAWN_PER_QUERY);
      const ids = (await rowsOf(this.conn, 'MATCH (r:Response) WHERE r.id IN $ids RETURN r.id AS id', { ids: candidates })).map((row) => String(row['id']));
      if (ids.length === 0) continue;
      await rowsOf(this.conn, 'MATCH (r:Response)-[:HAS_ATTACHMENT]->(a:Attachment) WHERE r.id IN $ids DETACH DELETE a', { ids });
      await rowsOf(this.conn, 'MATCH (r:Response) WHERE r.id IN $ids DETACH DELETE r', { ids });
      this.report.removedResponses += ids.length;
    }
    const answeredBy = this.relinks.flatMap((r) => r.answeredBy.map(([inquiry, response, turns]) => ({ i: inquiry, r: response, t: turns })));
    const ended = this.relinks.flatMap((r) => (r.endedBy === undefined ? [] : [{ r: r.endedBy, c: r.convId }]));
    for (let i = 0; i < answeredBy.length; i += WITHDRAWN_PER_QUERY) {
      const edges = answeredBy.slice(i, i + WITHDRAWN_PER_QUERY);
      this.countRelations('ANSWERED_BY', await this.createMissing(EDGE_ANSWERED_BY, edges));
    }
    for (let i = 0; i < ended.length; i += WITHDRAWN_PER_QUERY) {
      this.countRelations('ENDED', await this.createMissing(EDGE_ENDED, ended.slice(i, i + WITHDRAWN_PER_QUERY)));
    }
  }

  private async createMissing(query: string, edges: ReadonlyArray<Record<string, string | number>>): Promise<number> {
    const rows = await rowsOf(this.conn, query, { edges: [...edges] });
    return Number(rows[0]?.['n'] ?? 0);
  }

  private countRelations(table: string, added: number): void {
    if (added > 0) this.report.addedRelations[table] = (this.report.addedRelations[table] ?? 0) + added;
  }

  /** After a failed load the full-text indexes are made whole again; if that fails too, both are told. */
  private async restoreIndexesAfter(failure: Error): Promise<void> {
    try {
      await this.fts.restore();
    } catch (restoreError) {
      throw new Error(`${failure.message} (and then: ${(restoreError as Error).message})`, { cause: failure });
    }
  }

  private progress(phase: BuildPhase): void {
    this.options.onProgress?.({ phase, conversations: this.report.conversations, messages: this.report.messages, added: { ...this.report.addedNodes } });
  }
}

export async function buildGraph(
  conn: KuzuConnection,
  conversations: AsyncIterable<KnowledgeConversation> | Iterable<KnowledgeConversation>,
  options: BuildOptions,
): Promise<BuildReport> {
  const state = await loadState(conn);
  const fts = await FtsMaintenance.start(conn);
  const dir = mkdtempSync(join(tmpdir(), 'brandwire-knowledge-build-'));
  try {
    return await new GraphBuilder(conn, state, fts, dir, options).run(conversations);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
