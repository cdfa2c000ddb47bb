/**
 * The graph's schema (documented with example queries in README.md). Every statement is idempotent
 * (`IF NOT EXISTS`); the full-text indexes are created only when missing.
 */

export const NODE_TABLES = ['Channel', 'Customer', 'Conversation', 'Inquiry', 'Response', 'Attachment'] as const;
export const REL_TABLES = ['HAS_CUSTOMER', 'HAS_CONVERSATION', 'ASKED', 'ANSWERED_BY', 'HAS_TURN', 'HAS_ATTACHMENT', 'ENDED'] as const;

export type NodeTable = (typeof NODE_TABLES)[number];
export type RelTable = (typeof REL_TABLES)[number];

/**
 * Columns of each node table loaded from CSV, in order (the primary key first). Every node table also has
 * `loadedAt TIMESTAMP DEFAULT current_timestamp()`, left out of the CSV so Kuzu fills it at COPY time
 * (one timestamp fewer to parse per row).
 */
export const NODE_COLUMNS = {
  Channel: ['key'],
  Customer: ['id', 'channel', 'userKey'],
  Conversation: ['convId', 'channel', 'userKey', 'sessionId', 'seq', 'ended', 'startedAt', 'endedAt', 'lastActivity', 'lines'],
  Inquiry: ['id', 'convId', 'turn', 'text', 'ts'],
  Response: ['id', 'convId', 'turn', 'role', 'text', 'ts'],
  Attachment: ['id', 'type', 'url', 'caption'],
} as const satisfies Record<NodeTable, readonly string[]>;

const LOADED_AT = 'loadedAt TIMESTAMP DEFAULT current_timestamp()';

const NODE_DDL: Record<NodeTable, string> = {
  Channel: `key STRING PRIMARY KEY, ${LOADED_AT}`,
  Customer: `id STRING PRIMARY KEY, channel STRING, userKey STRING, ${LOADED_AT}`,
  Conversation:
    'convId STRING PRIMARY KEY, channel STRING, userKey STRING, sessionId STRING, seq INT64, ended BOOLEAN, ' +
    `startedAt TIMESTAMP, endedAt TIMESTAMP, lastActivity TIMESTAMP, lines INT64, ${LOADED_AT}`,
  Inquiry: `id STRING PRIMARY KEY, convId STRING, turn INT64, text STRING, ts TIMESTAMP, ${LOADED_AT}`,
  Response: `id STRING PRIMARY KEY, convId STRING, turn INT64, role STRING, text STRING, ts TIMESTAMP, ${LOADED_AT}`,
  Attachment: `id STRING PRIMARY KEY, type STRING, url STRING, caption STRING, ${LOADED_AT}`,
};

/** One source/target pair per relation file; HAS_TURN and HAS_ATTACHMENT have two. */
export interface RelPair {
  rel: RelTable;
  from: NodeTable;
  to: NodeTable;
  /** property columns after `from,to` */
  columns: readonly string[];
}

export const REL_PAIRS: readonly RelPair[] = [
  { rel: 'HAS_CUSTOMER', from: 'Channel', to: 'Customer', columns: [] },
  { rel: 'HAS_CONVERSATION', from: 'Customer', to: 'Conversation', columns: [] },
  { rel: 'ASKED', from: 'Customer', to: 'Inquiry', columns: [] },
  { rel: 'ANSWERED_BY', from: 'Inquiry', to: 'Response', columns: ['turns'] },
  { rel: 'HAS_TURN', from: 'Conversation', to: 'Inquiry', columns: ['turn'] },
  { rel: 'HAS_TURN', from: 'Conversation', to: 'Response', columns: ['turn'] },
  { rel: 'HAS_ATTACHMENT', from: 'Inquiry', to: 'Attachment', columns: [] },
  { rel: 'HAS_ATTACHMENT', from: 'Response', to: 'Attachment', columns: [] },
  { rel: 'ENDED', from: 'Response', to: 'Conversation', columns: [] },
];

/** HAS_TURN.turn: the turn number; ANSWERED_BY.turns: how many turns after the inquiry the response came (1 = next). */
const REL_PROPERTIES: Partial<Record<RelTable, string>> = { HAS_TURN: 'turn INT64', ANSWERED_BY: 'turns INT64' };

/** Name of the file/stream a relation pair is loaded from, e.g. "HAS_TURN_Conversation_Inquiry". */
export function relPairName(pair: RelPair): string {
  return `${pair.rel}_${pair.from}_${pair.to}`;
}

function relDdl(rel: RelTable): string {
  const pairs = REL_PAIRS.filter((p) => p.rel === rel).map((p) => `FROM ${p.from} TO ${p.to}`);
  const props = REL_PROPERTIES[rel];
  return `CREATE REL TABLE IF NOT EXISTS ${rel}(${[...pairs, ...(props ? [props] : [])].join(', ')})`;
}

export const SCHEMA_STATEMENTS: readonly string[] = [
  ...NODE_TABLES.map((t) => `CREATE NODE TABLE IF NOT EXISTS ${t}(${NODE_DDL[t]})`),
  ...REL_TABLES.map(relDdl),
];

/** Full-text indexes over the texts of inquiries and responses (Kuzu's FTS extension, statically linked); see fts-indexes.ts. */
export const FTS_INDEXES = [
  { table: 'Inquiry', index: 'inquiry_text', column: 'text' },
  { table: 'Response', index: 'response_text', column: 'text' },
] as const;

export type FtsIndex = (typeof FTS_INDEXES)[number];
