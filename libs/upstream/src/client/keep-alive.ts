import http from 'node:http';
import https from 'node:https';
import axios, { AxiosInstance, AxiosRequestHeaders } from 'axios';

export interface HttpClientOptions {
  baseUrl: string;
  partnerKey: string;
  timeoutMs?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const MAX_SOCKETS = 256;

/** An axios instance on keep-alive agents that sends X-Partner-Key and never follows redirects. */
export function createKeepAliveAxios(o: HttpClientOptions): { http: AxiosInstance; destroy: () => void } {
  const httpAgent = new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const httpsAgent = new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS });
  const instance = axios.create({
    baseURL: o.baseUrl.replace(/\/+$/, ''),
    timeout: o.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    headers: { 'X-Partner-Key': o.partnerKey },
    httpAgent,
    httpsAgent,
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
