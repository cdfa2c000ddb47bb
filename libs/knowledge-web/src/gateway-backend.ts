import type { GraphStatus, GraphView, QueryResultJson, SearchHit } from '@brandwire/knowledge';
import { isKnowledgeApiCode, KnowledgeApiError } from './api-error';
import type { KnowledgeBackend } from './backend';
import { loopbackGet, NoAnswerInTime } from './loopback-get';
import { GATEWAY_SERVICE } from './service-names';

/** Long enough for a heavy Cypher statement on a big graph; the gateway runs one call at a time. */
const CALL_TIMEOUT_MS = 120_000;

type Body = Record<string, unknown>;

/** GATEWAY_UNAVAILABLE for a call the gateway took but did not answer in time: it is busy (one call at a time) or hung, not gone. */
export class GatewayBusyError extends KnowledgeApiError {
  constructor(port: number, timeoutMs: number) {
    super('GATEWAY_UNAVAILABLE', `The gateway's query API on 127.0.0.1:${port} took the call but did not answer within ${timeoutMs} ms: it runs one call at a time, and a heavy query may still hold it.`);
  }
}

function isBody(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function bearer(token: string | undefined): Record<string, string> {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

async function call(port: number, token: string, path: string, timeoutMs: number): Promise<Body> {
  let answer;
  try {
    answer = await loopbackGet(port, path, timeoutMs, bearer(token));
  } catch (error) {
    if (error instanceof NoAnswerInTime) throw new GatewayBusyError(port, timeoutMs);
    throw new KnowledgeApiError('GATEWAY_UNAVAILABLE', `The gateway's query API on 127.0.0.1:${port} did not answer: ${(error as Error).message}.`);
  }
  const { status, body } = answer;
  if (!isBody(body) || typeof body['ok'] !== 'boolean') {
    throw new KnowledgeApiError('GATEWAY_UNAVAILABLE', `Port ${port} on 127.0.0.1 answered ${path} with HTTP ${status} but not as the Brandwire query API.`);
  }
  if (body['ok'] !== true) {
    const code = body['code'];
    const message = typeof body['message'] === 'string' ? body['message'] : `the gateway answered HTTP ${status}`;
    throw new KnowledgeApiError(isKnowledgeApiCode(code) ? code : 'INTERNAL', message, status);
  }
  return body;
}

function withoutEnvelope<T>(body: Body): T {
  const { ok: _ok, service: _service, ...rest } = body;
  return rest as T;
}

function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) search.set(name, String(value));
  return search.toString();
}

/**
 * A backend that calls the gateway's query API at http://127.0.0.1:<port> with its access token (queryToken in
 * the gateway's state file); errors keep the server's code.
 */
export function gatewayBackend(port: number, token: string, timeoutMs = CALL_TIMEOUT_MS): KnowledgeBackend {
  return {
    status: async () => withoutEnvelope<GraphStatus>(await call(port, token, '/knowledge/status', timeoutMs)),
    cypher: async (q) => withoutEnvelope<QueryResultJson>(await call(port, token, `/knowledge/cypher?${query({ q })}`, timeoutMs)),
    search: async (q, limit) => (await call(port, token, `/knowledge/search?${query({ q, limit })}`, timeoutMs))['hits'] as SearchHit[],
    graph: async (limit) => withoutEnvelope<GraphView>(await call(port, token, `/knowledge/graph.json?${query({ limit })}`, timeoutMs)),
    close: () => Promise.resolve(),
  };
}

/**
 * What answers GET /knowledge/status on 127.0.0.1:<port> within timeoutMs: a Brandwire gateway that takes `token`
 * ('answers'), one that refuses it or its absence (401 as the gateway: 'refuses-token', a gateway of another config
 * folder or user, whose token is in its own state file), or no gateway ('none').
 */
export async function probeGateway(port: number, token: string | undefined, timeoutMs = 500): Promise<'answers' | 'refuses-token' | 'none'> {
  try {
    const { status, body, service } = await loopbackGet(port, '/knowledge/status', timeoutMs, bearer(token));
    if (status === 200 && isBody(body) && body['ok'] === true && body['service'] === GATEWAY_SERVICE) return 'answers';
    return status === 401 && service === GATEWAY_SERVICE ? 'refuses-token' : 'none';
  } catch {
    return 'none';
  }
}

/** True when a Brandwire gateway taking `token` answers GET /knowledge/status on 127.0.0.1:<port> within timeoutMs. */
export async function gatewayAnswers(port: number, token: string, timeoutMs = 500): Promise<boolean> {
  return (await probeGateway(port, token, timeoutMs)) === 'answers';
}
