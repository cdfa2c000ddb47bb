import type { AxiosInstance } from 'axios';
import { AiKeyMissingError, AiUnavailableError } from './ai-error';
import type { AiSettings } from './ai-settings';

export const DEFAULT_TIMEOUT_MS = 30_000;

export interface ProviderCall {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/**
 * Where the provider's calls go, each SDK's way: `url` is OpenAI's base URL with its `/v1` (so for Ollama and other
 * compatible servers too), and Anthropic's without it.
 */
export function apiRoot(ai: AiSettings): string {
  if (ai.provider === 'anthropic') return `${(ai.url ?? 'https://api.anthropic.com').replace(/\/+$/, '')}/v1`;
  return (ai.url ?? (ai.provider === 'ollama' ? 'http://127.0.0.1:11434/v1' : 'https://api.openai.com/v1')).replace(/\/+$/, '');
}

/** The headers that authenticate a call; a provider that needs a key and has none is refused before any call. */
export function authHeaders(ai: AiSettings): Record<string, string> {
  switch (ai.provider) {
    case 'anthropic':
      if (!ai.apiKey) throw noKey(ai);
      return { 'x-api-key': ai.apiKey, 'anthropic-version': '2023-06-01' };
    case 'openai':
      if (!ai.apiKey) throw noKey(ai);
      return { authorization: `Bearer ${ai.apiKey}` };
    case 'ollama':
      return ai.apiKey ? { authorization: `Bearer ${ai.apiKey}` } : {};
  }
}

/** Makes the call and returns the provider's JSON; every failure is an AiUnavailableError saying what went wrong. */
export async function callProvider(ai: AiSettings, call: ProviderCall, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<object> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const axios = await loadAxios();
  let data: unknown;
  try {
    const response = await axios.request({
      method: call.method,
      url: call.url,
      headers: { accept: 'application/json', ...(call.body !== undefined && { 'content-type': 'application/json' }), ...call.headers },
      data: call.body,
      timeout: timeoutMs,
      signal: options.signal,
      maxRedirects: 0,
    });
    data = response.data;
  } catch (error) {
    throw new AiUnavailableError(ai.provider, ai.model, `the request to ${call.url} failed: ${describe(error, axios.isAxiosError(error), timeoutMs)}`, ai.apiKey);
  }
  // a wrong url or a proxy's login page answers 200 too, with a page instead of the provider's JSON
  if (typeof data !== 'object' || data === null) {
    const start = String(data).replace(/\s+/g, ' ').trim().slice(0, 60);
    throw new AiUnavailableError(ai.provider, ai.model, `${call.url} did not answer with the provider's JSON${start ? ` (it began: ${start})` : ''}`, ai.apiKey);
  }
  return data;
}

let axiosInstance: Promise<AxiosInstance & { isAxiosError: (e: unknown) => boolean }> | undefined;

// loaded on first use: the CLI's commands that never ask a model do not pay for the HTTP library at start-up
function loadAxios(): Promise<AxiosInstance & { isAxiosError: (e: unknown) => boolean }> {
  axiosInstance ??= import('axios').then((module) => module.default);
  return axiosInstance;
}

function noKey(ai: AiSettings): AiKeyMissingError {
  return new AiKeyMissingError(ai.provider, ai.model);
}

/** What went wrong, without the request (its headers hold the key). */
function describe(error: unknown, isAxios: boolean, timeoutMs: number): string {
  if (isAxios) {
    const e = error as { code?: string; message: string; response?: { status: number; statusText?: string; data?: unknown } };
    if (e.response) {
      const detail = providerMessage(e.response.data);
      return `HTTP ${e.response.status}${e.response.statusText ? ` ${e.response.statusText}` : ''}${detail ? `: ${detail}` : ''}`;
    }
    if (e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT') return `no answer within ${timeoutMs / 1000} s`;
    if (e.code === 'ERR_CANCELED') return 'cancelled';
    return e.code ? `${e.code} (${e.message})` : e.message;
  }
  return error instanceof Error ? error.message : String(error);
}

function providerMessage(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const error = (data as { error?: unknown }).error;
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : error;
  return typeof message === 'string' ? message.slice(0, 200) : undefined;
}
