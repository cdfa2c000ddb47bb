import { createServer } from 'node:http';
import { type AddressInfo, type Socket, connect } from 'node:net';
import { answerClientErrorsInEnvelope } from './client-errors';

describe('a request Node refuses (too slow, too large, malformed)', () => {
  it('is answered in the envelope and its connection closed whole, not only ended (a client could write on into it)', async () => {
    const server = createServer();
    answerClientErrorsInEnvelope(server);
    const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const client = connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', allowHalfOpen: true });
    try {
      let answer = '';
      client.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      client.on('error', () => undefined);
      const answered = new Promise((resolve) => client.once('end', resolve));
      const socket = await accepted;
      server.emit('clientError', Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket);
      const closed = await new Promise<boolean>((resolve) => {
        socket.once('close', () => resolve(true));
        setTimeout(() => resolve(false), 1_000).unref();
      });
      expect(closed).toBe(true);
      await answered;
      expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n[\s\S]*\r\n\r\n\{"ok":false,"code":"REQUEST_TIMEOUT","message":"the request did not arrive in time"\}$/);
    } finally {
      client.destroy();
      server.close();
    }
  });
});
