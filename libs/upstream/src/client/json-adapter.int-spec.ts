import http from 'node:http';
import { AddressInfo } from 'node:net';
import axios, { AxiosError, type AxiosInstance } from 'axios';
import { leanJsonAdapter } from './json-adapter';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  socket: unknown;
}

type Answer = (seen: Seen, res: http.ServerResponse) => void;

async function serve(answer: Answer): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), socket: req.socket };
      seen.push(s);
      answer(s, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function client(baseURL: string, timeout = 2000): { http: AxiosInstance; agent: { destroy: () => void } } {
  const httpAgent = new http.Agent({ keepAlive: true });
  const lean = leanJsonAdapter(axios.getAdapter('http'), { connections: 8 });
  const instance = axios.create({
    baseURL,
    timeout,
    proxy: false,
    httpAgent,
    headers: { 'X-Partner-Key': 'pk' },
    adapter: lean.adapter,
    transformRequest: [(data: unknown, headers) => (data instanceof FormData ? data : (headers.set('Content-Type', 'application/json'), JSON.stringify(data)))],
    transformResponse: [(data: unknown) => data],
    responseType: 'text',
  });
  return {
    http: instance,
    agent: {
      destroy: () => {
        lean.close();
        httpAgent.destroy();
      },
    },
  };
}

async function rejection(p: Promise<unknown>): Promise<AxiosError> {
  const error: unknown = await p.then(
    () => new Error('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AxiosError);
  return error as AxiosError;
}

describe('the lean JSON adapter of the messenger client', () => {
  it('posts the JSON body with the instance headers under the base path, on kept-alive connections, and returns the answer as text', async () => {
    const server = await serve((_s, res) => res.writeHead(200, { 'Content-Type': 'application/json', 'X-Trace': 't1' }).end('{"code":0,"message":"é"}'));
    const { http: api, agent } = client(`${server.url}/partner/`);
    try {
      const first = await api.request<string>({ method: 'post', url: '/v1/write', data: { message: 'héllo', n: 1 } });
      const second = await api.request<string>({ method: 'post', url: '/v1/end', data: { user_key: 'u1' } });
      expect([first.status, first.data, first.headers['x-trace']]).toEqual([200, '{"code":0,"message":"é"}', 't1']);
      expect(second.data).toBe('{"code":0,"message":"é"}');
      expect(server.seen.slice(0, 2).map((s) => [s.method, s.url, s.body])).toEqual([
        ['POST', '/partner/v1/write', '{"message":"héllo","n":1}'],
        ['POST', '/partner/v1/end', '{"user_key":"u1"}'],
      ]);
      expect(server.seen[0]?.headers).toMatchObject({
        'x-partner-key': 'pk',
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength('{"message":"héllo","n":1}')),
        // nothing decompresses the answer on this path, so none is asked for
        'accept-encoding': 'identity',
      });
      for (let i = 0; i < 4; i += 1) await api.request({ method: 'post', url: '/v1/end', data: { i } });
      // connections are kept and reused: six calls one after the other did not open six
      expect(new Set(server.seen.map((seen) => seen.socket)).size).toBeLessThanOrEqual(2);
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it('lets validateStatus decide: a refused status rejects with the answer attached', async () => {
    const server = await serve((_s, res) => res.writeHead(503).end('busy'));
    const { http: api, agent } = client(server.url);
    try {
      const error = await rejection(api.request({ method: 'post', url: '/v1/write', data: {}, validateStatus: (s) => s < 500 }));
      expect([error.code, error.message, error.response?.status, error.response?.data]).toEqual([AxiosError.ERR_BAD_RESPONSE, 'Request failed with status code 503', 503, 'busy']);
      const accepted = await api.request({ method: 'post', url: '/v1/write', data: {}, validateStatus: () => true });
      expect(accepted.status).toBe(503);
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it('gives up after the timeout as axios does, and a refused connection keeps its code', async () => {
    const silent = await serve(() => undefined);
    const { http: api, agent } = client(silent.url, 100);
    try {
      const late = await rejection(api.request({ method: 'post', url: '/v1/end', data: {} }));
      expect([late.code, late.message]).toEqual([AxiosError.ECONNABORTED, 'timeout of 100ms exceeded']);
    } finally {
      agent.destroy();
      await silent.close();
    }
    const refused = await rejection(client(silent.url).http.request({ method: 'post', url: '/v1/end', data: {} }));
    expect(refused.code).toBe('ECONNREFUSED');
    expect(refused.message).toBe(`connect ECONNREFUSED ${silent.url.slice('http://'.length)}`);
  });

  it('hands a multipart upload to axios own http adapter, which streams it', async () => {
    const server = await serve((_s, res) => res.writeHead(200).end('{"code":0}'));
    const { http: api, agent } = client(server.url);
    try {
      const form = new FormData();
      form.append('sender_key', 'k1');
      form.append('image', new Blob([Buffer.from('PNGDATA')]), 'a.png');
      const answer = await api.request<string>({ method: 'post', url: '/v1/upload/image', data: form });
      expect(answer.data).toBe('{"code":0}');
      expect(server.seen[0]?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(server.seen[0]?.body).toContain('filename="a.png"');
      expect(server.seen[0]?.body).toContain('PNGDATA');
    } finally {
      agent.destroy();
      await server.close();
    }
  });

  it('leaves a base URL with credentials to axios own adapter, which sends them as Basic auth', async () => {
    const server = await serve((_s, res) => res.writeHead(200).end('{"code":0}'));
    const { http: api, agent } = client(server.url.replace('http://', 'http://ops:s3cret@'));
    try {
      await api.request({ method: 'post', url: '/v1/end', data: {} });
      expect(server.seen[0]?.headers['authorization']).toBe(`Basic ${Buffer.from('ops:s3cret').toString('base64')}`);
    } finally {
      agent.destroy();
      await server.close();
    }
  });
});
