/**
 * @brandwire/knowledge: the local consultation knowledge graph (Kuzu, embedded). Requiring this module does
 * not load the native library; the first open (or `kuzuVersion()`) does.
 */
export { KnowledgeGraph, type QueryOptions } from './knowledge-graph';
export { KNOWLEDGE_ERROR_CODES, KnowledgeGraphError, describeHolder, type GraphHolder, type KnowledgeErrorCode } from './errors';
export { kuzuVersion } from './kuzu-native';
export { splitStatements, parameterNames } from './cypher-text';
export { runBatch } from './batch-report';
export { customerId, turnId } from './conversation-rows';
export { FTS_INDEXES, NODE_TABLES, REL_TABLES, SCHEMA_STATEMENTS, type NodeTable, type RelTable } from './schema';
export type { InstallReport } from './graph-status';
export type { SearchOptions } from './graph-search';
export type { Params } from './kuzu-run';
export type * from './types';
