import type { KnowledgeGraph } from '@brandwire/knowledge';
import { KnowledgeApiError } from './api-error';
import type { KnowledgeBackend } from './backend';
import { gatewayBackend, probeGateway } from './gateway-backend';
import { GraphFile } from './graph-file';

/** Where the gateway's query API answers, and its access token. */
export interface GatewayAddress {
  port: number;
  token: string;
}

export interface GatewayOrGraphOptions {
  /** the gateway as its state file names it now, read at each call; undefined when the file names none */
  gateway: () => GatewayAddress | undefined;
  /** opens the graph read-only in this process, for the calls no gateway answers */
  openGraph: () => Promise<KnowledgeGraph>;
  /** a backend over the graph already opened so (no gateway answered at start) */
  opened?: KnowledgeBackend;
}

/** The gateway read first, and the one read again after it refused or did not answer (restarted in between). */
const GATEWAY_TRIES = 2;

/** The gateway of that address is gone (stopped, restarted with a new token) or is not this folder's. */
function gatewayGone(error: unknown): boolean {
  return error instanceof KnowledgeApiError && (error.code === 'UNAUTHORIZED' || error.code === 'GATEWAY_UNAVAILABLE');
}

/**
 * A backend for a long-lived reader (`knowledge view`): each call goes through the gateway its state file names at
 * that moment, so a restart (a new token) changes nothing for its users; while no gateway answers with that token
 * (stopped, killed, hung) the graph file is opened read-only here, beside a gateway that starts meanwhile (it opens
 * the graph read-only too), and given up once a gateway answers again. A gateway that failed once is not asked
 * again: a new one has a new token.
 */
export function gatewayOrGraphBackend(options: GatewayOrGraphOptions): KnowledgeBackend {
  const file = new GraphFile(options.openGraph, options.opened);
  let answering: string | undefined;
  const failed = new Set<string>();

  /** The call's value from the gateway, or `none` when no gateway answers it. */
  const throughGateway = async <T>(work: (backend: KnowledgeBackend) => Promise<T>): Promise<{ value: T } | 'none'> => {
    for (let tries = 0; tries < GATEWAY_TRIES; tries += 1) {
      const address = options.gateway();
      if (address === undefined || failed.has(address.token)) return 'none';
      // a gateway not asked before may hang: a short probe first, not a call that may wait minutes
      if (answering !== address.token && (await probeGateway(address.port, address.token)) !== 'answers') {
        failed.add(address.token);
        continue;
      }
      answering = address.token;
      try {
        const value = await work(gatewayBackend(address.port, address.token));
        await file.release();
        return { value };
      } catch (error) {
        if (!gatewayGone(error)) throw error;
        failed.add(address.token);
      }
    }
    return 'none';
  };

  const read = async <T>(work: (backend: KnowledgeBackend) => Promise<T>): Promise<T> => {
    const fromGateway = await throughGateway(work);
    return fromGateway === 'none' ? file.use(work) : fromGateway.value;
  };

  return {
    status: () => read((backend) => backend.status()),
    cypher: (query) => read((backend) => backend.cypher(query)),
    search: (text, limit) => read((backend) => backend.search(text, limit)),
    graph: (limit) => read((backend) => backend.graph(limit)),
    close: () => file.release(),
  };
}
