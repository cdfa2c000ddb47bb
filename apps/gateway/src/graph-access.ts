import { KnowledgeGraph, KnowledgeGraphError } from '@brandwire/knowledge';
import { graphBackend, type KnowledgeBackend, missingGraphBackend } from '@brandwire/knowledge-web';

/** The name a process refused by the graph's lock is told. */
export const GATEWAY_HOLDER = 'the gateway';

/**
 * The graph opened read-only as "the gateway", or, when there is no graph yet, a backend that answers status
 * with installed:false: the gateway does not pick up a graph created later, so that a `knowledge install`
 * followed by `knowledge build` is not locked out in between.
 */
export async function openGraphBackend(path: string): Promise<KnowledgeBackend> {
  try {
    return graphBackend(await KnowledgeGraph.open(path, { readOnly: true, holder: GATEWAY_HOLDER }));
  } catch (error) {
    if (error instanceof KnowledgeGraphError && error.code === 'GRAPH_MISSING') {
      return missingGraphBackend(path, 'stop the gateway first (`brandwire gateway stop`), then run `brandwire knowledge install` and `brandwire knowledge build`, then `brandwire gateway start`.');
    }
    throw error;
  }
}
