import http from 'node:http';
import https from 'node:https';
import axios, { AxiosInstance, AxiosRequestHeaders } from 'axios';
import { leanJsonAdapter } from './json-adapter';

export interface HttpClientOptions {
  baseUrl: string;
  partnerKey: string;
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_SOCKETS = 256;
/**
 * The TCP keep-alive delay axios gives every request's socket (`setKeepAlive(true, 60 s)`, its http adapter).
 * The agents give the same when a socket goes back to the pool, so Node sees an unchanged setting and makes no
 * `setsockopt` call; with Node's default of 1 s the two alternated and cost two system calls per request.
 */
export const TCP_KEEP_ALIVE_MS = 60_000;

/** The variables axios's proxy lookup reads (either case), for http and https targets. */
const PROXY_VARIABLES = ['http_proxy', 'https_proxy', 'all_proxy'];

/**
 * `false` when no proxy variable is set: axios would find none for any URL, and now does not look it up
 * (NO_PROXY parsing and environment reads) on every request. Otherwise undefined, and axios decides per request
 * as before. Read once, with the rest of the configuration.
 */
export function proxySetting(env: NodeJS.ProcessEnv = process.env): false | undefined {
  return PROXY_VARIABLES.some((name) => env[name] || env[name.toUpperCase()]) ? undefined : false;
}

/** An axios instance on keep-alive agents that sends X-Partner-Key and never follows redirects. */
export function createKeepAliveAxios(o: HttpClientOptions): { http: AxiosInstance; destroy: () => void } {
  const agentOptions = { keepAlive: true, keepAliveMsecs: TCP_KEEP_ALIVE_MS, maxSockets: MAX_SOCKETS };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);
  const proxy = proxySetting();
  const lean = proxy === false ? leanJsonAdapter(axios.getAdapter('http'), { connections: MAX_SOCKETS }) : undefined;
  const instance = axios.create({
    baseURL: o.baseUrl.replace(/\/+$/, ''),
    timeout: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    headers: { 'X-Partner-Key': o.partnerKey },
    httpAgent,
    httpsAgent,
    ...(proxy === false ? { proxy } : {}),
    // JSON calls on the lean adapter when no proxy is to be used; Node's http adapter by name for the rest (axios's
    // default list would try XHR, absent in Node, first on every request)
    adapter: lean?.adapter ?? 'http',
    maxRedirects: 0,
    maxBodyLength: Infinity,
    maxContentLength: Infinity,
    // every status reaches the caller, which decides what is protocol and what is a transport failure
    validateStatus: () => true,
    // JSON bodies are stringified here, without axios's generic payload sniffing (measurably cheaper per call);
    // multipart FormData goes through untouched and the adapter streams it
    transformRequest: [
      (data: unknown, headers: AxiosRequestHeaders) => {
        if (data === undefined || data instanceof FormData) return data;
        headers.set('Content-Type', 'application/json');
        return JSON.stringify(data);
      },
    ],
    // parse JSON ourselves so a non-JSON body is detected instead of silently becoming a string
    transformResponse: [(data: unknown) => data],
    responseType: 'text',
  });
  return {
    http: instance,
    destroy: () => {
      lean?.close();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

/** Parses a JSON object body; undefined when it is not one. */
export function parseJsonObject(data: unknown): Record<string, unknown> | undefined {
  if (typeof data !== 'string' || data.length === 0) return undefined;
  try {
    const parsed: unknown = JSON.parse(data);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
