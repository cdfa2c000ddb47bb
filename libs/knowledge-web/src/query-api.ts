/** The query API's paths: each reads its parameters, makes one backend call and returns the JSON body. */
import { KnowledgeApiError } from './api-error';
import type { KnowledgeBackend } from './backend';

export type JsonBody = Record<string, unknown>;
export type ApiRoute = (params: URLSearchParams, backend: KnowledgeBackend) => Promise<JsonBody>;

/** The most hits `GET /knowledge/search?limit=` answers; `brandwire knowledge search --limit` takes no more, so both ways of reading agree. */
export const MAX_SEARCH_HITS = 200;
const MAX_GRAPH_NODES = 5000;

function requiredText(params: URLSearchParams, name: string, what: string): string {
  const value = params.get(name);
  if (value === null || value.trim() === '') throw new KnowledgeApiError('BAD_REQUEST', `The query parameter ${name} (${what}) is missing.`);
  return value;
}

function optionalLimit(params: URLSearchParams, max: number): number | undefined {
  const value = params.get('limit');
  if (value === null || value === '') return undefined;
  const limit = Number(value);
  if (!/^\d+$/.test(value) || limit < 1 || limit > max) throw new KnowledgeApiError('BAD_REQUEST', `limit must be a whole number from 1 to ${max}, got "${value}".`);
  return limit;
}

const cypher: ApiRoute = async (params, backend) => ({ ok: true, ...(await backend.cypher(requiredText(params, 'q', 'one read-only Cypher statement'))) });

export function queryApiRoutes(service: string): ReadonlyMap<string, ApiRoute> {
  return new Map<string, ApiRoute>([
    ['/knowledge/status', async (_params, backend) => ({ ok: true, service, ...(await backend.status()) })],
    ['/knowledge/cypher', cypher],
    [
      '/knowledge/search',
      async (params, backend) => {
        const text = requiredText(params, 'q', 'the words to search for');
        return { ok: true, hits: await backend.search(text, optionalLimit(params, MAX_SEARCH_HITS)) };
      },
    ],
    ['/knowledge/graph.json', async (params, backend) => ({ ok: true, ...(await backend.graph(optionalLimit(params, MAX_GRAPH_NODES))) })],
  ]);
}

/** The view page's own read-only endpoint: the same as /knowledge/cypher. */
export const VIEW_CYPHER_ROUTE: ApiRoute = cypher;
