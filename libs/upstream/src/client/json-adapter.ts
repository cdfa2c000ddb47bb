import { type AxiosAdapter, AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { Pool } from 'undici';

/** An axios adapter with the connection pools it keeps; `close` ends their connections. */
export interface LeanJsonAdapter {
  adapter: AxiosAdapter;
  close(): void;
}

/** Whether the lean path can send this request as axios's own adapter would (no credentials in the URL, no query). */
function isPlainJsonCall(config: InternalAxiosRequestConfig): config is InternalAxiosRequestConfig & { data: string; url: string; baseURL: string } {
  return (
    typeof config.data === 'string' &&
    typeof config.url === 'string' &&
    config.url.startsWith('/') &&
    typeof config.baseURL === 'string' &&
    config.proxy === false &&
    config.signal === undefined &&
    config.cancelToken === undefined &&
    config.auth === undefined &&
    config.params === undefined &&
    config.timeoutErrorMessage === undefined &&
    !/^[a-z]+:\/\/[^/]*@/i.test(config.baseURL ?? '')
  );
}

/**
 * An axios adapter for the messenger's JSON calls, on undici: one request on a keep-alive connection pool per
 * origin, the whole answer read as text, `validateStatus` honoured, failures as AxiosError with the transport's
 * code as axios's own http adapter gives them. `timeout` bounds connecting, the wait for the answer's headers and
 * each pause within its body (axios bounds the whole exchange; for the short JSON answers of the partner API the
 * two are the same). Node's http client under axios's adapter (redirect handling, stream and decompression
 * set-up, proxy lookup) cost about twice the CPU per call. Whatever this one does not cover (a FormData upload,
 * a proxy, a cancellable call) goes to `fallback`.
 */
export function leanJsonAdapter(fallback: AxiosAdapter, o: { connections: number }): LeanJsonAdapter {
  const pools = new Map<string, { pool: Pool; basePath: string }>();
  const poolFor = (baseUrl: string, timeoutMs: number | undefined) => {
    let entry = pools.get(baseUrl);
    if (!entry) {
      const url = new URL(baseUrl);
      const pool = new Pool(url.origin, { connections: o.connections, ...(timeoutMs ? { connect: { timeout: timeoutMs } } : {}) });
      entry = { pool, basePath: url.pathname.replace(/\/+$/, '') };
      pools.set(baseUrl, entry);
    }
    return entry;
  };
  return {
    adapter: (config) => (isPlainJsonCall(config) ? send(config, poolFor(config.baseURL, config.timeout)) : fallback(config)),
    close: () => {
      for (const { pool } of pools.values()) pool.destroy().catch(() => undefined);
      pools.clear();
    },
  };
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

async function send(config: InternalAxiosRequestConfig & { data: string; url: string }, target: { pool: Pool; basePath: string }): Promise<AxiosResponse> {
  // undici's own deadlines rather than an AbortController per call, which cost a third of the call's CPU time
  const timeout = config.timeout ?? 0;
  let status: number;
  let data: string;
  let headers: Record<string, string | string[] | undefined>;
  try {
    const answer = await target.pool.request({
      method: (config.method ?? 'get').toUpperCase() as 'POST',
      path: `${target.basePath}${config.url}`,
      // undici does not decompress, so the answer is asked for as it is (axios's adapter asks for gzip and inflates)
      headers: { ...(config.headers.toJSON(true) as Record<string, string>), 'accept-encoding': 'identity' },
      body: config.data,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    });
    status = answer.statusCode;
    headers = answer.headers;
    data = await answer.body.text();
  } catch (error) {
    const code = transportCode(error);
    if (code && TIMEOUT_CODES.has(code)) throw new AxiosError(`timeout of ${timeout}ms exceeded`, AxiosError.ECONNABORTED, config);
    throw AxiosError.from(error, code, config);
  }
  const response: AxiosResponse = { data, status, statusText: '', headers, config, request: undefined };
  if (config.validateStatus && !config.validateStatus(status)) {
    throw new AxiosError(`Request failed with status code ${status}`, status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST, config, undefined, response);
  }
  return response;
}

/** The system error code (ECONNREFUSED, ECONNRESET, ...) when there is one, else undici's own. */
function transportCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } };
  if (typeof e.cause?.code === 'string') return e.cause.code;
  return typeof e.code === 'string' ? e.code : undefined;
}
