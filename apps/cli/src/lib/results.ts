import type { ConversationResponse, FoundConversations, WebhookSettings } from '@brandwire/client';
import { CliError, usageError } from './cli-error';
import { EXIT } from './exit-codes';

/**
 * A REST answer with `ok: false` and HTTP 200 (the messenger refused: `-502`, `-520`, ...) fails the command
 * with the messenger's code; `details` go into the JSON error (e.g. the send's serial).
 */
export function requireOk<T extends { ok: boolean; code?: string; message?: string | null }>(reply: T, details: Record<string, unknown> = {}): T {
  if (reply.ok) return reply;
  const code = reply.code ?? 'REFUSED';
  throw new CliError(code, reply.message ?? `the messenger refused (${code})`, EXIT.error, details, refusedSerials(details));
}

/** The serials of a refused send for people (the JSON carries them in `serial` and `results`). */
function refusedSerials(details: Record<string, unknown>): string | undefined {
  const { serial, results } = details;
  const serials = Array.isArray(results) ? results.map((r) => (r as { serial?: unknown }).serial) : [serial];
  const named = serials.filter((s): s is string => typeof s === 'string');
  if (named.length === 0) return undefined;
  return `nothing was delivered; the refused send has serial${named.length === 1 ? '' : 's'} ${named.join(', ')}`;
}

/** The one conversation a convId names across the key's channels: NO_CONV when none has it, a usage error when several do. */
export function onlyConversation(convId: string, { channels, found }: FoundConversations): ConversationResponse {
  const [first, ...others] = found;
  if (!first) {
    throw new CliError('NO_CONV', `no conversation "${convId}" on any channel of this key (${channels.join(', ') || 'it has none'})`, EXIT.error, { status: 404 }, '`brandwire history` lists the conversations with their convId');
  }
  if (others.length > 0) {
    const where = found.map((c) => c.brand).join(' and ');
    throw usageError(`conversation "${convId}" is on ${where}: pass --channel to choose one`, `e.g. brandwire history --channel ${first.brand} --conv ${convId}`);
  }
  return first;
}

/**
 * The inbound webhook as the tool shows it: the service gives an Admin key the signing secret; with no URL connected
 * nothing is signed, so the secret is left out (in --json and in text alike).
 */
export function shownWebhook(reply: WebhookSettings): WebhookSettings {
  if (reply.url !== null || reply.secret === undefined) return reply;
  const { secret: _unused, ...disconnected } = reply;
  return disconnected;
}
