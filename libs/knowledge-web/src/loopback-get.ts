import { request } from 'node:http';

export interface LoopbackAnswer {
  status: number;
  /** the parsed JSON body, or undefined when the body was not JSON */
  body: unknown;
}

/**
 * GET http://127.0.0.1:<port><path> with the Host header the query API accepts. No keep-alive agent: a CLI
 * process must be able to exit right after its last call.
 */
export function loopbackGet(port: number, path: string, timeoutMs: number): Promise<LoopbackAnswer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', agent: false, headers: { host: `127.0.0.1:${port}`, accept: 'application/json' } }, (res) => {
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
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
