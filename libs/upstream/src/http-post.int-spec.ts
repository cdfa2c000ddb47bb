import http from 'node:http';
import https from 'node:https';
import { type AddressInfo, type Socket, createServer } from 'node:net';
import { postOnce } from './http-post';

const OK = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok';

/**
 * A server that answers the first request of each connection and drops the connection, unanswered, when a
 * second request arrives on it: what a client sees when the server closed a kept-alive connection as idle.
 */
async function closesIdleConnections(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let requests = 0;
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    let seen = 0;
    socket.on('data', (chunk: Buffer) => {
      for (const _ of chunk.toString().matchAll(/^POST /gm)) {
        requests += 1;
        seen += 1;
        if (seen === 1) socket.write(OK);
        else socket.resetAndDestroy();
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests: () => requests,
    close: () =>
      new Promise((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

describe('postOnce', () => {
  const agents = { http: new http.Agent({ keepAlive: true, maxSockets: 1 }), https: new https.Agent({ keepAlive: true }) };
  afterAll(() => {
    agents.http.destroy();
    agents.https.destroy();
  });

  it('sends again on a new connection when a reused one was dropped unanswered', async () => {
    const server = await closesIdleConnections();
    try {
      const post = () => postOnce(server.url, { headers: {}, body: '{}', timeoutMs: 5_000, agents, readBody: true });
      expect(await post()).toEqual({ status: 200, body: 'ok' });
      expect(await post()).toEqual({ status: 200, body: 'ok' });
      // the second POST reached the server twice: on the kept-alive connection (dropped), then on a new one
      expect(server.requests()).toBe(3);
    } finally {
      await server.close();
    }
  });

  it('does not send again when a new connection fails', async () => {
    const refused = postOnce('http://127.0.0.1:1/hook', { headers: {}, body: '{}', timeoutMs: 2_000, agents });
    await expect(refused).rejects.toMatchObject({ name: 'PostFailure', code: 'ECONNREFUSED' });
  });
});
