import { DomainError, type ErrorCode, httpStatusOf } from '@brandwire/domain';

/** The spec's error envelope: `{ ok: false, code, message }`. */
export interface ErrorEnvelope {
  ok: false;
  code: string;
  message: string;
}

export interface ErrorReply {
  status: number;
  body: ErrorEnvelope;
}

export function errorReply(code: ErrorCode, message: string): ErrorReply {
  return { status: httpStatusOf(code), body: { ok: false, code, message } };
}

export function fail(code: ErrorCode, message: string): DomainError {
  return new DomainError(code, message);
}
