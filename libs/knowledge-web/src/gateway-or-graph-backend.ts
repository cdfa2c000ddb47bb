import type { KnowledgeGraph } from '@brandwire/knowledge';
import { KnowledgeApiError } from './api-error';
import type { KnowledgeBackend } from './backend';
import { GatewayBusyError, gatewayBackend, probeGateway } from './gateway-backend';
import { GraphFile } from './graph-file';

/** Where the gateway's query API answers, and its access token. */
export interface GatewayAddress {
  port: number;
  token: string;
}

export interface GatewayOrGraphTiming {
  /** how long a call through the gateway may take (default: gatewayBackend's, long enough for a heavy Cypher statement) */
  callTimeoutMs: number;
  /** the pause before a gateway that did not answer is asked again; it doubles at each failure up to retryMaxMs */
  retryFirstMs: number;
  retryMaxMs: number;
  /** the graph file opened here is closed after this long without a call using it, so a build can open it */
  fileIdleMs: number;
}

const DEFAULT_TIMING: Omit<GatewayOrGraphTiming, 'callTimeoutMs'> = { retryFirstMs: 5_000, retryMaxMs: 60_000, fileIdleMs: 10_000 };

export interface GatewayOrGraphOptions {
  /** the gateway as its state file names it now, read at each call; undefined when the file names none */
  gateway: () => GatewayAddress | undefined;
  /** opens the graph read-only in this process, for the calls no gateway answers */
  openGraph: () => Promise<KnowledgeGraph>;
  /** a backend over the graph already opened so (no gateway answered at start) */
  opened?: KnowledgeBackend;
  timing?: Partial<GatewayOrGraphTiming>;
}

/** The gateway read first, and the one read again after it refused or did not answer (restarted in between). */
const GATEWAY_TRIES = 2;

/** The gateway of that address is gone (stopped, restarted with a new token) or is not this folder's. */
function gatewayGone(error: unknown): boolean {
  return error instanceof KnowledgeApiError && (error.code === 'UNAUTHORIZED' || error.code === 'GATEWAY_UNAVAILABLE');
}

/** The gateways (by token) that did not answer, each asked again after a pause that grows while it keeps failing. */
class GatewayPauses {
  private readonly pauses = new Map<string, { until: number; pauseMs: number }>();

  constructor(
    private readonly firstMs: number,
    private readonly maxMs: number,
  ) {}

  waiting(token: string): boolean {
    const pause = this.pauses.get(token);
    return pause !== undefined && performance.now() < pause.until;
  }

  failed(token: string): void {
    // calls sent together fail together: one pause for them
    if (this.waiting(token)) return;
    const last = this.pauses.get(token);
    const pauseMs = last === undefined ? this.firstMs : Math.min(last.pauseMs * 2, this.maxMs);
    // a monotonic clock: a wall clock set back would stretch the pause by as much
    this.pauses.set(token, { until: performance.now() + pauseMs, pauseMs });
  }

  answered(token: string): void {
    this.pauses.delete(token);
  }
}

/**
 * A backend for a long-lived reader (`knowledge view`): each call goes through the gateway its state file names at
 * that moment, so a restart (a new token) changes nothing for its users; while no gateway answers with that token
 * (stopped, killed, hung, busy) the graph file is opened read-only here, beside a gateway that starts meanwhile (it
 * opens the graph read-only too), and given up once a gateway answers again or no call has used it for a while. A
 * gateway that did not answer is asked again after a pause (5 s, doubling up to 60 s). A call the gateway took but
 * did not answer in time fails with the gateway's GATEWAY_UNAVAILABLE: the gateway is busy, not gone, and the call is
 * not run a second time here.
 */
export function gatewayOrGraphBackend(options: GatewayOrGraphOptions): KnowledgeBackend {
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const file = new GraphFile(options.openGraph, timing.fileIdleMs, options.opened);
  const pauses = new GatewayPauses(timing.retryFirstMs, timing.retryMaxMs);
  let answering: string | undefined;

  /** The call's value from the gateway, or `none` when no gateway answers it. */
  const throughGateway = async <T>(work: (backend: KnowledgeBackend) => Promise<T>): Promise<{ value: T } | 'none'> => {
    for (let tries = 0; tries < GATEWAY_TRIES; tries += 1) {
      const address = options.gateway();
      // a gateway another call just found answering is asked, whatever pause a probe of it that lost the race set
      if (address === undefined || (answering !== address.token && pauses.waiting(address.token))) return 'none';
      // a gateway not asked before, or not answering since, may hang: a short probe first, not a call that may wait minutes
      if (answering !== address.token) {
        if ((await probeGateway(address.port, address.token)) !== 'answers') {
          pauses.failed(address.token);
          continue;
        }
        pauses.answered(address.token);
        answering = address.token;
      }
      try {
        const value = await work(gatewayBackend(address.port, address.token, timing.callTimeoutMs));
        await file.release();
        return { value };
      } catch (error) {
        if (error instanceof GatewayBusyError) {
          answering = undefined;
          throw error;
        }
        if (!gatewayGone(error)) throw error;
        answering = undefined;
        pauses.failed(address.token);
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
