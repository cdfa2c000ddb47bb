import http from 'node:http';
import https from 'node:https';
import { type AxiosAdapter, AxiosError, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';

interface Target {
  secure: boolean;
  hostname: string;
  port: string;
  /** the base URL's path without its trailing slash, '' for the root */
  basePath: string;
}

function parseBase(baseUrl: string): Target {
  const url = new URL(baseUrl);
  const secure = url.protocol === 'https:';
  return {
    secure,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port || (secure ? '443' : '80'),
    basePath: url.pathname.replace(/\/+$/, ''),
  };
}

/** Whether the lean path can send this request as axios's own adapter would. */
function isPlainJsonCall(config: InternalAxiosRequestConfig): config is InternalAxiosRequestConfig & { data: string; url: string; baseURL: string } {
  return (
    typeof config.data === 'string' &&
    typeof config.url === 'string' &&
    config.url.startsWith('/') &&
    typeof config.baseURL === 'string' &&
    config.proxy === false &&
    config.signal === undefined &&
    config.cancelToken === undefined &&
    config.auth === undefined
  );
}

/**
 * An axios adapter for the messenger's JSON calls: one node:http request on the instance's keep-alive agents,
 * the whole answer read as text, `timeout` and `validateStatus` honoured, failures as AxiosError with the
 * transport's code, as axios's own http adapter gives them. That adapter (redirect handling, stream and
 * decompression set-up, proxy lookup) cost about as much CPU per call as the rest of a send's HTTP client
 * work; whatever this one does not cover (a FormData upload, a proxy, a cancellable call) goes to `fallback`.
 */
export function leanJsonAdapter(fallback: AxiosAdapter): AxiosAdapter {
  let base: { url: string; target: Target } | undefined;
  return (config) => {
    if (!isPlainJsonCall(config)) return fallback(config);
    if (base?.url !== config.baseURL) base = { url: config.baseURL, target: parseBase(config.baseURL) };
    return send(config, base.target);
  };
}

function send(config: InternalAxiosRequestConfig & { data: string; url: string }, target: Target): Promise<AxiosResponse> {
  const headers = config.headers.toJSON(true) as Record<string, string>;
  headers['Content-Length'] = String(Buffer.byteLength(config.data));
  const options: http.RequestOptions = {
    method: (config.method ?? 'get').toUpperCase(),
    hostname: target.hostname,
    port: target.port,
    path: `${target.basePath}${config.url}`,
    headers,
    agent: (target.secure ? config.httpsAgent : config.httpAgent) as http.Agent | undefined,
  };
  return new Promise<AxiosResponse>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const settle = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const request = (target.secure ? https : http).request(options, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => settle(() => reject(AxiosError.from(error, (error as NodeJS.ErrnoException).code, config, request))));
      response.on('end', () =>
        settle(() => {
          const status = response.statusCode ?? 0;
          const answer: AxiosResponse = {
            data: Buffer.concat(chunks).toString('utf8'),
            status,
            statusText: response.statusMessage ?? '',
            headers: response.headers,
            config,
            request,
          };
          if (!config.validateStatus || config.validateStatus(status)) resolve(answer);
          else reject(new AxiosError(`Request failed with status code ${status}`, status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST, config, request, answer));
        }),
      );
    });
    request.on('error', (error) => settle(() => reject(AxiosError.from(error, (error as NodeJS.ErrnoException).code, config, request))));
    if (config.timeout) {
      timer = setTimeout(() => {
        settle(() => reject(new AxiosError(`timeout of ${config.timeout}ms exceeded`, AxiosError.ECONNABORTED, config, request)));
        request.destroy();
      }, config.timeout);
    }
    request.end(config.data);
  });
}
