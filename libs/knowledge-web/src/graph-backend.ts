import { type GraphStatus, type KnowledgeGraph, KnowledgeGraphError, kuzuVersion } from '@brandwire/knowledge';
import { KnowledgeApiError } from './api-error';
import type { KnowledgeBackend } from './backend';

/** A KnowledgeApiError keeping the library's code; Kuzu's own errors become `fallback` with Kuzu's message. */
export function toApiError(error: unknown, fallback: 'BAD_QUERY' | 'INTERNAL'): KnowledgeApiError {
  if (error instanceof KnowledgeApiError) return error;
  if (error instanceof KnowledgeGraphError) return new KnowledgeApiError(error.code, error.message);
  return new KnowledgeApiError(fallback, error instanceof Error ? error.message : String(error));
}

async function mapped<T>(work: () => Promise<T>, fallback: 'BAD_QUERY' | 'INTERNAL' = 'INTERNAL'): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toApiError(error, fallback);
  }
}

function notInstalled(path: string, hint: string): KnowledgeApiError {
  return new KnowledgeApiError('NOT_INSTALLED', `The knowledge graph at ${path} is not installed yet: ${hint}`);
}

const INSTALL_HINT = 'run `brandwire knowledge install` and `brandwire knowledge build` first.';

/**
 * A backend over a KnowledgeGraph opened in this process; backend.close() closes the graph. Every call is
 * read-only: KnowledgeGraph.query runs without `write`. A graph opened read-only cannot change while it is
 * open (no writer can open it meanwhile), so its status is read once and then answered without waiting for
 * a query that is running.
 */
export function graphBackend(graph: KnowledgeGraph): KnowledgeBackend {
  let installed = false;
  let status: GraphStatus | undefined;

  const requireInstalled = async (): Promise<void> => {
    if (installed) return;
    installed = await graph.isInstalled();
    if (!installed) throw notInstalled(graph.path, INSTALL_HINT);
  };

  return {
    status: () =>
      mapped(async () => {
        if (status !== undefined) return status;
        const current = await graph.status();
        if (graph.readOnly) status = current;
        return current;
      }),
    cypher: (query) =>
      mapped(async () => {
        await requireInstalled();
        return mapped(() => graph.query(query), 'BAD_QUERY');
      }),
    search: (text, limit) =>
      mapped(async () => {
        await requireInstalled();
        return graph.search(text, limit === undefined ? {} : { limit });
      }),
    graph: (limit) =>
      mapped(async () => {
        await requireInstalled();
        return graph.graphJson(limit);
      }),
    close: () => graph.close(),
  };
}

/**
 * A backend for a graph that did not exist when it was asked for (the gateway started before `knowledge
 * install`): status says installed:false, every other call fails with NOT_INSTALLED.
 */
export function missingGraphBackend(path: string, hint = INSTALL_HINT): KnowledgeBackend {
  const refuse = (): Promise<never> => Promise.reject(notInstalled(path, hint));
  return {
    status: () => mapped(() => Promise.resolve({ path, readOnly: true, installed: false, kuzuVersion: kuzuVersion(), nodes: {}, relations: {}, ftsIndexes: [] })),
    cypher: refuse,
    search: refuse,
    graph: refuse,
    close: () => Promise.resolve(),
  };
}
