import { openAsBlob } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { IMAGE_SIGNATURE_BYTES, imageMediaType } from '@brandwire/domain';
import axios, { type AxiosError, type AxiosInstance, type AxiosResponse, isAxiosError } from 'axios';
import type { AnswerCheck } from './answer-shapes';
import { ApiError, NetworkError } from './errors';
import { shownEndpoint } from './shown-url';

export interface ClientOptions {
  /** base URL of the service, e.g. http://127.0.0.1:8080 */
  endpoint: string;
  /** the bearer key; calls that need none (device pairing) work without it */
  token?: string | undefined;
  /** per request, in milliseconds (default 30 s; uploads get four times as long) */
  timeoutMs?: number;
  userAgent?: string;
  /** ends every call of this client at once when it aborts (a daemon stopping): the call rejects with the signal's reason */
  signal?: AbortSignal | undefined;
}

export type Query = Record<string, string | number | undefined>;

const MEDIA_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.heic': 'image/heic',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.wav': 'audio/wav',
  '.mp4': 'video/mp4',
  '.mov': 'video/quicktime',
};

/** A file part of a multipart request, read from disk as it is sent. */
export interface FilePart {
  field: string;
  path: string;
}

function envelopeOf(data: unknown): { code: string; message: string } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { code, message } = data as Record<string, unknown>;
  return typeof code === 'string' ? { code, message: typeof message === 'string' ? message : code } : undefined;
}

/** The HTTP transport: JSON in and out, the envelope's errors as ApiError, no answer as NetworkError. */
export class Http {
  private readonly axios: AxiosInstance;
  private readonly timeoutMs: number;

  constructor(readonly options: ClientOptions) {
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.axios = axios.create({
      baseURL: options.endpoint.replace(/\/+$/, ''),
      timeout: this.timeoutMs,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        'user-agent': options.userAgent ?? 'brandwire-client',
        accept: 'application/json',
      },
      // every status is read here: the envelope says what went wrong
      validateStatus: () => true,
      maxRedirects: 0,
    });
  }

  /** `check`: what the answer must hold to be the service's (a 2xx answer without it is BAD_RESPONSE). */
  async get<T>(path: string, check: AnswerCheck, query: Query = {}): Promise<T> {
    return this.expectOk<T>(await this.send({ method: 'GET', url: path, params: defined(query) }), check);
  }

  async post<T>(path: string, check: AnswerCheck, body: unknown = {}, headers: Record<string, string> = {}): Promise<T> {
    return this.expectOk<T>(await this.send({ method: 'POST', url: path, data: body, headers }), check);
  }

  async put<T>(path: string, check: AnswerCheck, body: unknown): Promise<T> {
    return this.expectOk<T>(await this.send({ method: 'PUT', url: path, data: body }), check);
  }

  async delete<T>(path: string, check: AnswerCheck): Promise<T> {
    return this.expectOk<T>(await this.send({ method: 'DELETE', url: path }), check);
  }

  /** A POST whose 4xx answers the caller reads itself (device token polling); other failures still throw. */
  async postRaw(path: string, check: AnswerCheck, body: unknown): Promise<{ status: number; data: unknown }> {
    const response = await this.send({ method: 'POST', url: path, data: body });
    if (response.status >= 500 || (response.status >= 200 && response.status < 300)) this.expectOk(response, check);
    return { status: response.status, data: response.data as unknown };
  }

  /**
   * multipart/form-data: text fields, and files streamed from disk with a media type: a jpg, png or gif by its
   * first bytes (so an image is sent as one whatever it is called), anything else by its extension.
   */
  async multipart<T>(path: string, check: AnswerCheck, fields: Record<string, string | undefined>, files: readonly FilePart[], headers: Record<string, string> = {}): Promise<T> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value);
    for (const file of files) {
      const type = imageMediaType(await firstBytes(file.path)) ?? MEDIA_TYPES[extname(file.path).toLowerCase()] ?? 'application/octet-stream';
      form.append(file.field, await openAsBlob(file.path, { type }), basename(file.path));
    }
    return this.expectOk<T>(await this.send({ method: 'POST', url: path, data: form, headers, timeout: this.timeoutMs * 4 }), check);
  }

  private async send(config: Parameters<AxiosInstance['request']>[0]): Promise<AxiosResponse> {
    const { signal } = this.options;
    try {
      return await this.axios.request(signal ? { ...config, signal } : config);
    } catch (error) {
      signal?.throwIfAborted();
      if (isAxiosError(error) && (!error.response || answerCutOff(error))) throw this.noAnswer(error, config);
      throw error;
    }
  }

  /**
   * A request without an HTTP answer. Once it went out whole (flushed to the connection) the service may have
   * carried it out, whether the wait ran out or the connection broke (reset, hang-up): an unanswered request. One
   * that did not (refused, unknown host, no connection in time) never reached the service.
   */
  private noAnswer(error: AxiosError, config: Parameters<AxiosInstance['request']>[0]): NetworkError {
    const timedOut = error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT';
    const timeoutMs = config.timeout ?? this.timeoutMs;
    const reason = timedOut ? `no answer within ${timeoutMs} ms` : answerCutOff(error) ? 'its answer was cut off' : (error.code ?? error.message);
    if (!sentWhole(error)) return new NetworkError(this.options.endpoint, reason);
    const request = { method: (config.method ?? 'GET').toUpperCase(), path: config.url ?? '' };
    if (timedOut) return new NetworkError(this.options.endpoint, reason, { ...request, failure: 'timeout', timeoutMs });
    return new NetworkError(this.options.endpoint, `the connection broke before the answer (${reason})`, { ...request, failure: 'connection-broke', errorCode: reason });
  }

  private expectOk<T>(response: AxiosResponse, check: AnswerCheck): T {
    if (response.status >= 200 && response.status < 300) {
      const data = response.data as unknown;
      const problem = typeof data !== 'object' || data === null ? 'without JSON' : check(data);
      if (problem === undefined) return data as T;
      const request = `${(response.config.method ?? 'get').toUpperCase()} ${response.config.url ?? ''}`;
      throw new ApiError(response.status, 'BAD_RESPONSE', `the endpoint ${shownEndpoint(this.options.endpoint)} did not answer as a Brandwire service: ${request} answered ${response.status} ${problem}`);
    }
    const envelope = envelopeOf(response.data);
    if (envelope) throw new ApiError(response.status, envelope.code, envelope.code === 'NO_ROUTE' ? envelope.message + apiPathHint(this.options.endpoint) : envelope.message);
    const request = `${(response.config.method ?? 'get').toUpperCase()} ${response.config.url ?? ''}`;
    throw new ApiError(
      response.status,
      `HTTP_${response.status}`,
      `the endpoint ${shownEndpoint(this.options.endpoint)} answered ${request} with HTTP ${response.status} without the error envelope: it may not be a Brandwire service (or a proxy in front of it failed)`,
    );
  }
}

/** An answer whose headers came and whose body the connection cut off: no answer either. */
function answerCutOff(error: AxiosError): boolean {
  return error.response !== undefined && error.code === 'ERR_BAD_RESPONSE' && /aborted/i.test(error.message);
}

/** Whether the whole request, body and all, was flushed to the connection (axios gives Node's ClientRequest). */
function sentWhole(error: AxiosError): boolean {
  const request: unknown = error.request;
  return typeof request === 'object' && request !== null && (request as { writableFinished?: unknown }).writableFinished === true;
}

/** The first bytes of a file, enough to tell an image's format. */
async function firstBytes(path: string): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(IMAGE_SIGNATURE_BYTES);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * For a route the service does not know: an endpoint ending in /api is likely one level too deep, as the client adds
 * /api itself. Only a hint: a service behind a reverse proxy may well live under a path ending in /api.
 */
function apiPathHint(endpoint: string): string {
  const url = new URL(endpoint);
  if (!/\/api\/*$/i.test(url.pathname)) return '';
  url.pathname = url.pathname.replace(/\/api\/*$/i, '');
  return ` (the endpoint ${shownEndpoint(endpoint)} ends in /api, which the client adds itself: is the service at ${shownEndpoint(url.href).replace(/\/+$/, '')}?)`;
}

function defined(query: Query): Record<string, string | number> {
  return Object.fromEntries(Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] !== undefined));
}
