import { type ErrorCode, isErrorCode } from '@brandwire/domain';
import { shownEndpoint, withoutUserinfo } from './shown-url';

/**
 * The service answered with an error: `code` is the envelope's code (one of the service's ErrorCodes, or
 * `HTTP_<status>` when the body was not the envelope), `status` the HTTP status.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  /** the service's own error code, when it is one */
  get errorCode(): ErrorCode | undefined {
    return isErrorCode(this.code) ? this.code : undefined;
  }
}

/**
 * A request that went out whole and got no answer: the service may have carried it out. `failure` says why none
 * came: none in time (`timeoutMs`), or the connection broke first (`errorCode`, such as ECONNRESET).
 */
export type UnansweredRequest = { method: string; path: string } & (
  | { failure: 'timeout'; /** how long the client waited, in milliseconds */ timeoutMs: number }
  | { failure: 'connection-broke'; errorCode: string }
);

/** The service could not be reached, or did not answer: no HTTP answer at all. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly code = 'NETWORK';
  /** the endpoint as messages name it: without its userinfo, query or fragment */
  readonly endpoint: string;
  readonly reason: string;

  constructor(
    endpoint: string,
    reason: string,
    /** set when the whole request went out and no answer came (else the service did not get it) */
    readonly unanswered?: UnansweredRequest,
  ) {
    const shown = shownEndpoint(endpoint);
    const why = withoutUserinfo(reason);
    super(`could not reach the service at ${shown}: ${why}`);
    this.endpoint = shown;
    this.reason = why;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}
