/** Loads the native `kuzu` module on first use only: requiring it costs start-up time a CLI cannot spare. */
import type * as Kuzu from 'kuzu';
import { KnowledgeGraphError } from './errors';

export type KuzuModule = typeof Kuzu;
export type KuzuDatabase = Kuzu.Database;
export type KuzuConnection = Kuzu.Connection;
export type KuzuQueryResult = Kuzu.QueryResult;
export type KuzuValue = Kuzu.KuzuValue;

let loaded: KuzuModule | undefined;

export function kuzu(): KuzuModule {
  if (loaded === undefined) {
    try {
      loaded = require('kuzu') as KuzuModule;
    } catch (error) {
      throw new KnowledgeGraphError('NATIVE_UNAVAILABLE', `The graph database library (kuzu) could not be loaded: ${(error as Error).message}`);
    }
  }
  return loaded;
}

/** Version of the native library, loading it (what `knowledge install` checks first). */
export function kuzuVersion(): string {
  return kuzu().Database.getVersion();
}

/** The one result, or every result of a multi-statement query, as a list. */
export function resultsOf(result: KuzuQueryResult | KuzuQueryResult[]): KuzuQueryResult[] {
  return Array.isArray(result) ? result : [result];
}
