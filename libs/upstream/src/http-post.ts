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

/** A kept-alive connection the server closed while idle fails the next request on it at once, unanswered. */
const STALE_CONNECTION = new Set(['ECONNRESET', 'EPIPE']);
const STALE_RETRIES = 3;

/**
 * One POST on keep-alive agents, no redirects followed. Plain node:http rather than axios for the busy
 * machine-to-machine paths (webhook deliveries, the sandbox messenger's callbacks): axios costs about 250 µs of
 * CPU more per request, which caps their throughput. A request that failed unanswered on a reused connection
 * (the server had just closed it as idle) is sent again, as Node's documentation advises, within the same deadline.
 */
export async function postOnce(url: string, options: PostOptions): Promise<PostAnswer> {
  const deadline = Date.now() + options.timeoutMs;
  for (let retry = 0; ; retry += 1) {
    const outcome = await postAttempt(url, { ...options, timeoutMs: Math.max(1, deadline - Date.now()) });
    if ('answer' in outcome) return outcome.answer;
    const stale = outcome.reusedSocket && !outcome.answered && STALE_CONNECTION.has(outcome.failure.code ?? '');
    if (!stale || retry === STALE_RETRIES || Date.now() >= deadline) throw outcome.failure;
  }
}

type Attempt = { answer: PostAnswer } | { failure: PostFailure; reusedSocket: boolean; answered: boolean };

function postAttempt(url: string, options: PostOptions): Promise<Attempt> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    // not the url itself: it often holds the receiver's secret, and failures are logged
    return Promise.resolve({ failure: new PostFailure('EINVALIDURL', 'not a URL'), reusedSocket: false, answered: false });
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
  return new Promise<Attempt>((resolve) => {
    let settled = false;
    let answered = false;
    const settle = (outcome: Attempt): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const fail = (error: Error): void =>
      settle({ failure: new PostFailure((error as NodeJS.ErrnoException).code, error.message), reusedSocket: outgoing.reusedSocket, answered });
    const outgoing = (secure ? https : http).request(request, (response) => {
      answered = true;
      const status = response.statusCode ?? 0;
      const chunks: Buffer[] = [];
      if (options.readBody) response.on('data', (chunk: Buffer) => chunks.push(chunk));
      // an unread body must still be consumed for the connection to be reused
      else response.resume();
      response.on('end', () => settle({ answer: { status, body: options.readBody ? Buffer.concat(chunks).toString('utf8') : '' } }));
      response.on('error', fail);
    });
    const timer = setTimeout(() => outgoing.destroy(Object.assign(new Error(`no answer within ${options.timeoutMs} ms`), { code: 'ETIMEDOUT' })), options.timeoutMs);
    outgoing.on('error', fail);
    outgoing.end(options.body);
  });
}
