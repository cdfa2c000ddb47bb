import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorReply } from '../errors/envelope';

/**
 * The requests of one connection answered at once, at most. HTTP/1.1 lets a client send requests one after the
 * other without reading an answer (pipelining): one connection could otherwise start tens of thousands of requests,
 * each holding memory and the database, in the time it takes to answer a few. A client that does not pipeline has
 * one in flight.
 */
export const MAX_REQUESTS_IN_FLIGHT = 32;

const IN_FLIGHT = Symbol('brandwire.requestsInFlight');

type CountedSocket = Socket & { [IN_FLIGHT]?: number };

/**
 * A request past the limit is answered 429 `RATE_LIMITED` at once, without reaching the app, and the connection is
 * closed after it (in order, after the answers before it). Node stops reading a connection whose answers wait
 * unread, so what a client that never reads has queued stays small.
 */
export function limitPipelining(server: Server, max = MAX_REQUESTS_IN_FLIGHT): void {
  const listeners = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const { status, body } = errorReply('RATE_LIMITED', `more than ${max} requests of this connection are being answered at once (HTTP pipelining): wait for the answers, or use more connections`);
  const refusal = JSON.stringify(body);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket as CountedSocket;
    const inFlight = (socket[IN_FLIGHT] ?? 0) + 1;
    if (inFlight > max) {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(refusal), connection: 'close' }).end(refusal);
      return;
    }
    socket[IN_FLIGHT] = inFlight;
    response.once('close', () => (socket[IN_FLIGHT] = (socket[IN_FLIGHT] ?? 1) - 1));
    for (const listener of listeners) listener.call(server, request, response);
  });
}
