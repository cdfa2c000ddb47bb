import { type ErrorCode, isErrorCode } from '@brandwire/domain';

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

/** A request that was sent but got no answer in time: the service may have carried it out. */
export interface UnansweredRequest {
  method: string;
  path: string;
  /** how long the client waited, in milliseconds */
  timeoutMs: number;
}

/** The service could not be reached or did not answer in time: no HTTP answer at all. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  readonly code = 'NETWORK';

  constructor(
    readonly endpoint: string,
    readonly reason: string,
    /** set when the request went out and no answer came in time (else the service was not reached) */
    readonly unanswered?: UnansweredRequest,
  ) {
    super(`could not reach the service at ${endpoint}: ${reason}`);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export function isNetworkError(error: unknown): error is NetworkError {
  return error instanceof NetworkError;
}
