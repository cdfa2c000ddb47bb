import http from 'node:http';
import https from 'node:https';

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  /** one deadline for the whole exchange: connect, send, answer */
  timeoutMs: number;
  agents: { http: http.Agent; https: https.Agent };
  /** read the answer's body (default false: it is drained unread) */
  readBody?: boolean;
}

export interface PostAnswer {
  status: number;
  /** the answer's text when `readBody`, else '' */
  body: string;
}

/** Why a POST got no answer: the transport's code (ECONNREFUSED, ETIMEDOUT, ...) and message. */
export class PostFailure extends Error {
  override readonly name = 'PostFailure';

  constructor(
    readonly code: string | undefined,
    message: string,
  ) {
    super(code ? `${code}: ${message}` : message);
  }
}

/**
 * One POST on keep-alive agents, no redirects followed. Plain node:http rather than axios for the busy
 * machine-to-machine paths (webhook deliveries, the sandbox messenger's callbacks): axios costs about 250 µs of
 * CPU more per request, which caps their throughput.
 */
export function postOnce(url: string, options: PostOptions): Promise<PostAnswer> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.reject(new PostFailure('EINVALIDURL', `invalid URL ${url}`));
  }
  const secure = target.protocol === 'https:';
  const request: http.RequestOptions = {
    method: 'POST',
    protocol: target.protocol,
    hostname: target.hostname.replace(/^\[|\]$/g, ''),
    port: target.port || (secure ? 443 : 80),
    path: `${target.pathname}${target.search}`,
    headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
    agent: secure ? options.agents.https : options.agents.http,
  };
  if (target.username || target.password) request.auth = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
  return new Promise<PostAnswer>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const fail = (error: Error): void => settle(() => reject(new PostFailure((error as NodeJS.ErrnoException).code, error.message)));
    const outgoing = (secure ? https : http).request(request, (response) => {
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      if (options.readBody) response.on('data', (chunk: Buffer) => chunks.push(chunk));
      // an unread body must still be consumed for the connection to be reused
      else response.resume();
      response.on('end', () => settle(() => resolve({ status, body: options.readBody ? Buffer.concat(chunks).toString('utf8') : '' })));
      response.on('error', fail);
    });
    const timer = setTimeout(() => outgoing.destroy(Object.assign(new Error(`no answer within ${options.timeoutMs} ms`), { code: 'ETIMEDOUT' })), options.timeoutMs);
    outgoing.on('error', fail);
    outgoing.end(options.body);
  });
}
