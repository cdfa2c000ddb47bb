import type { ErrorCode } from '@brandwire/domain';

/**
 * The tool's exit codes (documented in `brandwire --help` and the README):
 * 0 ok, 1 error, 2 usage (the command line was wrong), 3 partly done (some bubbles of a send were not delivered),
 * 4 authentication needed (no key, or the key was refused).
 */
export const EXIT = { ok: 0, error: 1, usage: 2, partly: 3, auth: 4 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The exit code of each of the service's error codes. */
export function exitCodeOf(code: ErrorCode): ExitCode {
  switch (code) {
    case 'UNAUTHORIZED':
      return EXIT.auth;
    case 'BAD_REQUEST':
    case 'FORBIDDEN':
    case 'UNKNOWN_BRAND':
    case 'NO_ROUTE':
    case 'METHOD_NOT_ALLOWED':
    case 'REQUEST_TIMEOUT':
    case 'HEADERS_TOO_LARGE':
    case 'NOT_FOUND':
    case 'PAYLOAD_TOO_LARGE':
    case 'UNSUPPORTED_MEDIA_TYPE':
    case 'BAD_RICH':
    case 'UNSUPPORTED_BUBBLE':
    case 'BAD_URL':
    case 'UNSUPPORTED_IMAGE':
    case 'IMAGE_TOO_LARGE':
    case 'UNSUPPORTED_CHANNEL':
    case 'NO_WEBHOOK':
    case 'EMPTY':
    case 'NOT_DELETABLE':
    case 'ALREADY_DELETED':
    case 'EXPIRED':
    case 'NO_CONV':
    case 'PLAN_EXHAUSTED':
    case 'IDEMPOTENCY_CONFLICT':
    case 'RATE_LIMITED':
    case 'UPSTREAM_UNAVAILABLE':
    case 'SANDBOX_ONLY':
    case 'STORAGE_UNAVAILABLE':
    case 'INTERNAL':
      return EXIT.error;
    default: {
      const unreachable: never = code;
      throw new Error(`unknown error code ${String(unreachable)}`);
    }
  }
}
