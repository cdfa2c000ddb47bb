import { setTimeout as sleep } from 'node:timers/promises';
import { messageOf } from '../gateway-log';
import { type RelayEvent, bodyFor } from './relay-event';
import type { RelayTarget } from './relay-settings';

const TIMEOUT_MS = 10_000;
const FIRST_RETRY_MS = 1_000;
const LAST_RETRY_MS = 60_000;
/** Answers that refuse the event itself (its size or shape), not the moment: a retry cannot help. */
const REFUSES_THE_CONTENT = /^HTTP (400|413|422)$/;

/**
 * Delivers an event to a target until it takes it (a 2xx answer), trying again after 1 s doubling up to a
 * minute: the pair's later events wait, so the target gets them in order. An event the target refuses as such
 * (400, 413, 422) is skipped, logged. Ends early when `stop` aborts (the event is then relayed again after the restart).
 */
export async function deliverTo(target: RelayTarget, event: RelayEvent, stop: AbortSignal, report: (line: string) => void): Promise<void> {
  let retryMs = FIRST_RETRY_MS;
  for (;;) {
    const failure = await post(target, event, stop);
    if (failure === undefined || stop.aborted) return;
    if (REFUSES_THE_CONTENT.test(failure)) {
      // sending it again would be refused again, and every later event would wait behind it
      report(`error: the ${target.name} refused ${event.id} (${failure}); it is skipped`);
      return;
    }
    report(`relay of ${event.id} to the ${target.name} failed (${failure}); trying again in ${retryMs / 1000} s`);
    await sleep(retryMs, undefined, { signal: stop }).catch(() => undefined);
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  }
}

/** Why the target did not take the event; undefined when it did. */
async function post(target: RelayTarget, event: RelayEvent, stop: AbortSignal): Promise<string | undefined> {
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'idempotency-key': event.id, ...(target.token && { authorization: `Bearer ${target.token}` }) },
      body: JSON.stringify(bodyFor(target.type, event, target.name === 'CRM')),
      redirect: 'manual',
      signal: AbortSignal.any([stop, AbortSignal.timeout(TIMEOUT_MS)]),
    });
    await response.arrayBuffer().catch(() => undefined);
    return response.status >= 200 && response.status < 300 ? undefined : `HTTP ${response.status}`;
  } catch (error) {
    if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
    const cause = error instanceof Error ? (error.cause as { code?: string } | undefined) : undefined;
    return cause?.code ?? messageOf(error);
  }
}
