import { DomainError, ERROR_CODES, ErrorCode, httpStatusOf, isErrorCode } from './errors';

describe('httpStatusOf', () => {
  const expected: Record<ErrorCode, number> = {
    BAD_REQUEST: 400,
    UNAUTHORIZED: 401,
    FORBIDDEN: 403,
    UNKNOWN_BRAND: 404,
    NO_ROUTE: 404,
    METHOD_NOT_ALLOWED: 405,
    REQUEST_TIMEOUT: 408,
    HEADERS_TOO_LARGE: 431,
    NOT_FOUND: 404,
    PAYLOAD_TOO_LARGE: 413,
    UNSUPPORTED_MEDIA_TYPE: 415,
    BAD_RICH: 400,
    UNSUPPORTED_BUBBLE: 400,
    BAD_URL: 400,
    UNSUPPORTED_IMAGE: 400,
    IMAGE_TOO_LARGE: 413,
    UNSUPPORTED_CHANNEL: 400,
    EMPTY: 400,
    NOT_DELETABLE: 409,
    ALREADY_DELETED: 409,
    EXPIRED: 409,
    NO_WEBHOOK: 409,
    NO_CONV: 404,
    PLAN_EXHAUSTED: 402,
    IDEMPOTENCY_CONFLICT: 409,
    RATE_LIMITED: 429,
    UPSTREAM_UNAVAILABLE: 502,
    STORAGE_UNAVAILABLE: 503,
    SANDBOX_ONLY: 404,
    INTERNAL: 500,
  };

  it.each(Object.entries(expected))('%s -> %i', (code, status) => {
    expect(httpStatusOf(code as ErrorCode)).toBe(status);
  });

  it('covers every code in ERROR_CODES and nothing else', () => {
    expect([...ERROR_CODES].sort()).toEqual(Object.keys(expected).sort());
  });

  it('throws on a value outside the union (unreachable default)', () => {
    expect(() => httpStatusOf('NOPE' as ErrorCode)).toThrow('Unknown error code: NOPE');
  });
});

describe('isErrorCode', () => {
  it.each(ERROR_CODES.map((c) => [c]))('accepts %s', (code) => {
    expect(isErrorCode(code)).toBe(true);
  });

  it.each([['-502'], ['not_found'], [''], [404], [null], [undefined], [{}]])('rejects %p', (value) => {
    expect(isErrorCode(value)).toBe(false);
  });
});

describe('DomainError', () => {
  it('carries code and message and is an Error', () => {
    const error = new DomainError('NO_CONV', 'no such conversation');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('NO_CONV');
    expect(error.message).toBe('no such conversation');
    expect(error.name).toBe('DomainError');
  });

  it('can be asserted with toThrow', () => {
    const fail = (): never => {
      throw new DomainError('EXPIRED', 'too old');
    };
    expect(fail).toThrow(expect.objectContaining({ code: 'EXPIRED', message: 'too old' }));
  });
});
