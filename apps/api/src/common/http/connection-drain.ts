import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** Answers remembered before finished ones are dropped from the set (then twice what is left, at least this). */
const PRUNE_AT = 1_024;
/** The longest a stop waits for the answers in flight before the app closes (which still lets them finish). */
const DRAIN_GRACE_MS = 2_000;
/**
 * A stop goes on once no answer is in flight and no request came in for this long: a client that has just read an
 * answer on a kept-alive connection sends its next request within it, also on a loaded machine (25 ms was missed
 * there, and the connection was closed under the request).
 */
const QUIET_MS = 250;

/**
 * Lets a stop wait for the requests in flight only, and cut none. A server closing waits for every connection
 * to end, and a client that keeps its connection busy (a load balancer, an agent sending in a loop) never lets
 * it end; closing a kept-alive connection the moment it falls idle cuts the request its client is sending next
 * (a POST cut there cannot be told from one never sent). So once the stop begins the server takes no new
 * connection, every answer not yet started says `Connection: close`, and the stop waits until no answer is in
 * flight and no request came in for a moment: busy connections have then ended with their answers, and what is
 * left is idle, which the app's close ends. Signal streams are not waited for: their controller ends them.
 */
export class ConnectionDrain {
  private draining = false;
  private readonly answering = new Set<ServerResponse>();
  private pruneAt = PRUNE_AT;
  private requests = 0;

  constructor(private readonly server: Server) {
    // first among the listeners: the header must be set before any handler answers
    server.prependListener('request', (_request, response) => {
      this.requests += 1;
      if (this.draining) response.setHeader('Connection', 'close');
      this.answering.add(response);
      if (this.answering.size >= this.pruneAt) this.prune();
    });
  }

  /** Stops taking connections and waits (up to a grace) until the requests in flight are answered. */
  async drain(graceMs = DRAIN_GRACE_MS): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    for (const response of this.answering) if (!response.headersSent) response.setHeader('Connection', 'close');
    // net's close, not http's: http's also closes the idle connections at once, cutting a request on its way
    NetServer.prototype.close.call(this.server);
    const deadline = Date.now() + graceMs;
    let seen = -1;
    while (Date.now() < deadline && (this.inFlight() > 0 || seen !== this.requests)) {
      seen = this.requests;
      await sleep(QUIET_MS);
    }
  }

  private inFlight(): number {
    this.prune();
    let busy = 0;
    for (const response of this.answering) if (!String(response.getHeader('content-type') ?? '').startsWith('text/event-stream')) busy += 1;
    return busy;
  }

  private prune(): void {
    // answered, or its client went away
    for (const response of this.answering) if (response.writableEnded || response.socket === null || response.socket.destroyed) this.answering.delete(response);
    this.pruneAt = Math.max(PRUNE_AT, this.answering.size * 2);
  }
}
