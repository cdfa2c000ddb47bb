/** A request that changes something (not a GET) which went out and got no answer in time: its outcome is unknown. */
export interface UnansweredChange {
  endpoint: string;
  method: string;
  path: string;
  timeoutMs: number;
}

/** The client's NetworkError, read without loading the client (and its HTTP library) up front. */
interface NetworkErrorLike extends Error {
  name: 'NetworkError';
  endpoint: string;
  unanswered?: { method: string; path: string; timeoutMs: number };
}

/** The change a failure left unknown; undefined for any other failure, a GET's timeout among them (nothing changed). */
export function unansweredChange(error: unknown): UnansweredChange | undefined {
  if (!(error instanceof Error) || error.name !== 'NetworkError') return undefined;
  const { endpoint, unanswered } = error as NetworkErrorLike;
  if (unanswered === undefined || unanswered.method === 'GET') return undefined;
  return { endpoint, ...unanswered };
}

/** "no answer from the service at <endpoint> within 30 s" */
export function noAnswerWithin(change: UnansweredChange): string {
  return `no answer from the service at ${change.endpoint} within ${change.timeoutMs / 1000} s`;
}
