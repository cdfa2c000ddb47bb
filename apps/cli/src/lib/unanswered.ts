/** The client's UnansweredRequest: why no answer came. */
type NoAnswer = { failure: 'timeout'; timeoutMs: number } | { failure: 'connection-broke'; errorCode: string };

/**
 * A request that changes something (not a GET) which went out whole and got no answer (none in time, or the
 * connection broke first): its outcome is unknown.
 */
export type UnansweredChange = { endpoint: string; method: string; path: string } & NoAnswer;

/** The client's NetworkError, read without loading the client (and its HTTP library) up front. */
interface NetworkErrorLike extends Error {
  name: 'NetworkError';
  endpoint: string;
  unanswered?: { method: string; path: string } & NoAnswer;
}

/** The change a failure left unknown; undefined for any other failure, a GET's among them (nothing changed). */
export function unansweredChange(error: unknown): UnansweredChange | undefined {
  if (!(error instanceof Error) || error.name !== 'NetworkError') return undefined;
  const { endpoint, unanswered } = error as NetworkErrorLike;
  if (unanswered === undefined || unanswered.method === 'GET') return undefined;
  return { endpoint, ...unanswered };
}

/** "no answer from the service at <endpoint> within 30 s", or "the connection to … broke before its answer (ECONNRESET)" */
export function noAnswer(change: UnansweredChange): string {
  switch (change.failure) {
    case 'timeout':
      return `no answer from the service at ${change.endpoint} within ${change.timeoutMs / 1000} s`;
    case 'connection-broke':
      return `the connection to the service at ${change.endpoint} broke before its answer (${change.errorCode})`;
    default: {
      const unreachable: never = change;
      throw new Error(`unknown failure ${JSON.stringify(unreachable)}`);
    }
  }
}
