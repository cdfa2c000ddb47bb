import { KNOWLEDGE_ERROR_CODES, type KnowledgeErrorCode } from '@brandwire/knowledge';

/** Codes of the query API beyond the graph library's own (KNOWLEDGE_ERROR_CODES). */
export const KNOWLEDGE_API_CODES = [
  /** Kuzu refused the statement (syntax, binder, a write on the read-only graph); the message is Kuzu's */
  'BAD_QUERY',
  /** a missing or malformed parameter of the query API */
  'BAD_REQUEST',
  /** no such path */
  'NOT_FOUND',
  /** a method other than GET or HEAD */
  'METHOD_NOT_ALLOWED',
  /** the request carries no access token, or a wrong one (a bearer token or the page's cookie) */
  'UNAUTHORIZED',
  /** a Host header other than 127.0.0.1:<port> or localhost:<port> (DNS rebinding) */
  'FORBIDDEN',
  /** the gateway's query API did not answer, or answered with something that is not the query API */
  'GATEWAY_UNAVAILABLE',
  /** the port asked for is taken by another program */
  'PORT_IN_USE',
  /** anything unexpected; logged by the server */
  'INTERNAL',
] as const;

export type KnowledgeApiCode = KnowledgeErrorCode | (typeof KNOWLEDGE_API_CODES)[number];

/** The HTTP status of each code. */
export function statusOf(code: KnowledgeApiCode): number {
  switch (code) {
    case 'BAD_QUERY':
    case 'BAD_REQUEST':
    case 'MISSING_PARAMETER':
    case 'READ_ONLY':
      return 400;
    case 'UNAUTHORIZED':
      return 401;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'METHOD_NOT_ALLOWED':
      return 405;
    case 'PORT_IN_USE':
      return 409;
    case 'NOT_INSTALLED':
    case 'GRAPH_MISSING':
    case 'GRAPH_LOCKED':
    case 'GRAPH_NEEDS_REPAIR':
    case 'NATIVE_UNAVAILABLE':
    case 'GATEWAY_UNAVAILABLE':
      return 503;
    case 'INTERNAL':
      return 500;
    default: {
      const unreachable: never = code;
      return unreachable;
    }
  }
}

const CODES: ReadonlySet<string> = new Set<string>([...KNOWLEDGE_ERROR_CODES, ...KNOWLEDGE_API_CODES]);

export function isKnowledgeApiCode(value: unknown): value is KnowledgeApiCode {
  return typeof value === 'string' && CODES.has(value);
}

/** An error of the query API, on the server and (with the server's code) in gatewayBackend. */
export class KnowledgeApiError extends Error {
  override readonly name = 'KnowledgeApiError';
  readonly status: number;

  constructor(
    readonly code: KnowledgeApiCode,
    message: string,
    status?: number,
  ) {
    super(message);
    this.status = status ?? statusOf(code);
  }
}
