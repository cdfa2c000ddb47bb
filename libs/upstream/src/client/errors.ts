import { isAxiosError } from 'axios';

export type UnavailableReason = 'connection' | 'timeout' | 'http_status' | 'bad_response';

/**
 * The messenger could not be reached or answered something that is not its protocol (connection refused,
 * timeout, non-2xx status, non-JSON body). Business failures (HTTP 200 with a negative code) are results,
 * never this error.
 */
export class UpstreamUnavailableError extends Error {
  override readonly name = 'UpstreamUnavailableError';

  constructor(
    readonly reason: UnavailableReason,
    readonly target: string,
    detail: string,
    readonly status?: number,
    /** the call never reached the messenger (no connection was made): it did nothing there */
    readonly neverArrived = false,
  ) {
    super(`upstream messenger unavailable (${reason}): ${target}: ${detail}`);
  }
}

/** Connection failures before anything was sent; a reset or a timeout may come after the messenger acted. */
const NEVER_ARRIVED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

const TIMEOUT_CODES = new Set(['ECONNABORTED', 'ETIMEDOUT', 'ERR_CANCELED', 'ESOCKETTIMEDOUT']);

/** Turns whatever axios threw into an UpstreamUnavailableError with a one-line message. */
export function toUnavailable(err: unknown, target: string): UpstreamUnavailableError {
  if (err instanceof UpstreamUnavailableError) return err;
  if (isAxiosError(err)) {
    const code = err.code ?? '';
    if (err.response) {
      return new UpstreamUnavailableError('http_status', target, `HTTP ${err.response.status}`, err.response.status);
    }
    if (TIMEOUT_CODES.has(code) || /timeout/i.test(err.message)) {
      return new UpstreamUnavailableError('timeout', target, err.message);
    }
    const detail = code && !err.message.includes(code) ? `${code}: ${err.message}` : err.message;
    return new UpstreamUnavailableError('connection', target, detail || 'connection failed', undefined, NEVER_ARRIVED_CODES.has(code));
  }
  const detail = err instanceof Error ? err.message : String(err);
  return new UpstreamUnavailableError('connection', target, detail);
}
