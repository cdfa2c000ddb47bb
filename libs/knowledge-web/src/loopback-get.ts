import { request } from 'node:http';

export interface LoopbackAnswer {
  status: number;
  /** the parsed JSON body, or undefined when the body was not JSON */
  body: unknown;
  /** the X-Brandwire-Service header: what a knowledge server calls itself, also when it refuses the request */
  service: string | undefined;
}

/**
 * The server took the request but sent no answer within the time: on 127.0.0.1 a port where nothing listens
 * refuses the connection at once, so this is a server that is busy or hung, not one that is gone.
 */
export class NoAnswerInTime extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no answer within ${timeoutMs} ms`);
  }
}

/**
 * GET http://127.0.0.1:<port><path> with the Host header the query API accepts, and `headers`. No keep-alive
 * agent: a CLI process must be able to exit right after its last call.
 */
export function loopbackGet(port: number, path: string, timeoutMs: number, headers: Record<string, string> = {}): Promise<LoopbackAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', agent: false, headers: { ...headers, host: `127.0.0.1:${port}`, accept: 'application/json' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = undefined;
        }
        const service = res.headers['x-brandwire-service'];
        resolve({ status: res.statusCode ?? 0, body, service: typeof service === 'string' ? service : undefined });
      });
    });
    req.setTimeout(timeoutMs, () => req.destroy(new NoAnswerInTime(timeoutMs)));
    req.on('error', reject);
    req.end();
  });
}
