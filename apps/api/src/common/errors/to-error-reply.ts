import { DomainError } from '@brandwire/domain';
import { isDatabaseUnreachable } from '@brandwire/store';
import { UpstreamUnavailableError } from '@brandwire/upstream';
import { HttpException } from '@nestjs/common';
import { type ErrorReply, errorReply } from './envelope';

interface BodyParserError {
  type?: string;
  status?: number;
  limit?: number;
  /** the raw body, for a body that could not be parsed */
  body?: unknown;
}

/** Valid JSON that is not an object or a list (`null`, `5`, `"x"`): strict parsing refuses it too. */
function isJsonScalar(body: unknown): boolean {
  if (typeof body !== 'string') return false;
  try {
    const value: unknown = JSON.parse(body);
    return value === null || typeof value !== 'object';
  } catch {
    return false;
  }
}

/** body-parser and raw-body name what went wrong reading a body in `type` (`entity.parse.failed`, `request.aborted`, …). */
function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof error === 'object' && error !== null && typeof (error as BodyParserError).type === 'string';
}

function fromBodyParser(error: BodyParserError): ErrorReply | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return errorReply('BAD_REQUEST', isJsonScalar(error.body) ? 'the request body must be a JSON object' : 'the request body is not valid JSON');
    case 'entity.too.large':
      return errorReply('PAYLOAD_TOO_LARGE', `the request body is larger than the limit of ${error.limit ?? 'the service'} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return errorReply('UNSUPPORTED_MEDIA_TYPE', 'the request body has an unsupported encoding or charset');
    case 'request.aborted':
      return errorReply('BAD_REQUEST', 'the request was aborted before its body arrived');
    case undefined:
    default:
      return undefined;
  }
}

function fromHttpException(error: HttpException): ErrorReply {
  const status = error.getStatus();
  switch (status) {
    case 404:
      return errorReply('NO_ROUTE', error.message);
    case 413:
      return errorReply('PAYLOAD_TOO_LARGE', error.message);
    case 415:
      return errorReply('UNSUPPORTED_MEDIA_TYPE', error.message);
    case 401:
      return errorReply('UNAUTHORIZED', error.message);
    case 403:
      return errorReply('FORBIDDEN', error.message);
    case 429:
      return errorReply('RATE_LIMITED', error.message);
    default:
      return status >= 500 ? errorReply('INTERNAL', 'internal error') : errorReply('BAD_REQUEST', error.message);
  }
}

/** Says nothing of the database's address or the driver's words: those go to the log. */
export const STORAGE_UNAVAILABLE_MESSAGE = 'the database cannot be reached just now; try again';

/** Turns anything thrown while serving a request into the envelope and its status; undefined means a bug (500). */
export function toErrorReply(error: unknown): ErrorReply | undefined {
  if (error instanceof DomainError) return errorReply(error.code, error.message);
  if (error instanceof UpstreamUnavailableError) return errorReply('UPSTREAM_UNAVAILABLE', `the messenger could not be reached: ${error.message}`);
  // before the database's test, which goes by socket codes: a client that left mid-body is ECONNABORTED too
  if (isBodyParserError(error)) return fromBodyParser(error);
  if (isDatabaseUnreachable(error)) return errorReply('STORAGE_UNAVAILABLE', STORAGE_UNAVAILABLE_MESSAGE);
  if (error instanceof HttpException) return fromHttpException(error);
  return undefined;
}
