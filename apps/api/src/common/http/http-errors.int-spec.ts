import { connect } from 'node:net';
import { ServiceHarness } from '../../test-support/service-harness';

/** Writes raw bytes to the service and reads what comes back until it closes the connection. */
function rawExchange(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function bodyOf(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
}

describe('answers about the HTTP request itself', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it.each([
    ['PUT', '/api/agent/send', 'POST'],
    ['GET', '/api/agent/end', 'POST'],
    ['DELETE', '/api/agent/rooms/alice/messages', 'GET, HEAD'],
    ['POST', '/api/agent/settings/webhook', 'GET, HEAD, PUT'],
  ])('answers %s %s with 405 METHOD_NOT_ALLOWED and Allow: %s', async (method, path, allow) => {
    const reply = await h.request(method, path);
    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe(allow);
    expect(reply.body).toEqual({ ok: false, code: 'METHOD_NOT_ALLOWED', message: `${path} does not take ${method}; it takes ${allow}` });
  });

  it('still answers a path no route has with 404 NO_ROUTE', async () => {
    const reply = await h.request('PUT', '/api/agent/no-such-thing');
    expect([reply.status, reply.body]).toEqual([404, { ok: false, code: 'NO_ROUTE', message: 'Cannot PUT /api/agent/no-such-thing' }]);
  });

  it('answers headers larger than Node reads with 431 in the envelope', async () => {
    const answer = await rawExchange(h.url, `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(answer).toContain('Content-Type: application/json; charset=utf-8');
    expect(bodyOf(answer)).toEqual({ ok: false, code: 'HEADERS_TOO_LARGE', message: 'the request line and headers are larger than 16 KB' });
  });

  it('answers a request that is not HTTP with 400 in the envelope', async () => {
    const answer = await rawExchange(h.url, 'HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(bodyOf(answer)).toEqual({ ok: false, code: 'BAD_REQUEST', message: 'the request is not well-formed HTTP' });
  });
});
