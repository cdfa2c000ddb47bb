import type { Server } from 'node:http';

/** How often a stopping server closes the kept-alive connections that fell idle since. */
const IDLE_SWEEP_MS = 50;

/**
 * Lets a stop wait for the requests in flight only. A server closing waits for every connection to end, and a
 * client that keeps its connection busy (a load balancer, an agent sending in a loop) never lets it end: once
 * the stop begins, every answer says `Connection: close` and connections are closed as soon as they fall idle.
 */
export class ConnectionDrain {
  private draining = false;

  constructor(private readonly server: Server) {
    // first among the listeners: the header must be set before any handler answers
    server.prependListener('request', (_request, response) => {
      if (this.draining) response.setHeader('Connection', 'close');
    });
  }

  /** Stops keeping connections alive; the server's own close then ends when the requests in flight are answered. */
  start(): void {
    if (this.draining) return;
    this.draining = true;
    this.server.closeIdleConnections();
    // a request in flight now is answered kept-alive: its connection is closed when it falls idle
    const sweep = setInterval(() => this.server.closeIdleConnections(), IDLE_SWEEP_MS);
    sweep.unref();
    this.server.once('close', () => clearInterval(sweep));
  }
}
