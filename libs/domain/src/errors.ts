/** The service's own error codes: a closed union, mapped to HTTP status in exactly one place. */
export const ERROR_CODES = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'UNKNOWN_BRAND',
  'NO_ROUTE',
  'METHOD_NOT_ALLOWED',
  'NOT_FOUND',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'HEADERS_TOO_LARGE',
  'REQUEST_TIMEOUT',
  'BAD_RICH',
  'UNSUPPORTED_BUBBLE',
  'BAD_URL',
  'UNSUPPORTED_IMAGE',
  'IMAGE_TOO_LARGE',
  'UNSUPPORTED_CHANNEL',
  'NO_WEBHOOK',
  'EMPTY',
  'NOT_DELETABLE',
  'ALREADY_DELETED',
  'EXPIRED',
  'NO_CONV',
  'PLAN_EXHAUSTED',
  'IDEMPOTENCY_CONFLICT',
  'RATE_LIMITED',
  'UPSTREAM_UNAVAILABLE',
  'STORAGE_UNAVAILABLE',
  'SANDBOX_ONLY',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** HTTP status of an error code. Upstream rejections (`-502`, ...) are not ErrorCodes: they travel as HTTP 200. */
export function httpStatusOf(code: ErrorCode): number {
  switch (code) {
    case 'BAD_REQUEST':
    case 'BAD_RICH':
    case 'UNSUPPORTED_BUBBLE':
    case 'BAD_URL':
    case 'UNSUPPORTED_IMAGE':
    case 'UNSUPPORTED_CHANNEL':
    case 'EMPTY':
      return 400;
    case 'UNAUTHORIZED':
      return 401;
    case 'PLAN_EXHAUSTED':
      return 402;
    case 'FORBIDDEN':
      return 403;
    case 'UNKNOWN_BRAND':
    case 'NO_ROUTE':
    case 'NOT_FOUND':
    case 'NO_CONV':
    case 'SANDBOX_ONLY':
      return 404;
    case 'METHOD_NOT_ALLOWED':
      return 405;
    case 'REQUEST_TIMEOUT':
      return 408;
    case 'NOT_DELETABLE':
    case 'ALREADY_DELETED':
    case 'EXPIRED':
    case 'IDEMPOTENCY_CONFLICT':
    case 'NO_WEBHOOK':
      return 409;
    case 'PAYLOAD_TOO_LARGE':
    case 'IMAGE_TOO_LARGE':
      return 413;
    case 'UNSUPPORTED_MEDIA_TYPE':
      return 415;
    case 'HEADERS_TOO_LARGE':
      return 431;
    case 'RATE_LIMITED':
      return 429;
    case 'INTERNAL':
      return 500;
    case 'UPSTREAM_UNAVAILABLE':
      return 502;
    case 'STORAGE_UNAVAILABLE':
      return 503;
    default: {
      const unreachable: never = code;
      throw new Error(`Unknown error code: ${String(unreachable)}`);
    }
  }
}

const ERROR_CODE_SET: ReadonlySet<string> = new Set<string>(ERROR_CODES);

export function isErrorCode(x: unknown): x is ErrorCode {
  return typeof x === 'string' && ERROR_CODE_SET.has(x);
}

/** A failure the service reports to its clients as `{ ok: false, code, message }`. */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
