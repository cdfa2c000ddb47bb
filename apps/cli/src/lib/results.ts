import { CliError } from './cli-error';
import { EXIT } from './exit-codes';

/**
 * A REST answer with `ok: false` and HTTP 200 (the messenger refused: `-502`, `-520`, ...) fails the command
 * with the messenger's code; `details` go into the JSON error (e.g. the send's serial).
 */
export function requireOk<T extends { ok: boolean; code?: string; message?: string | null }>(reply: T, details: Record<string, unknown> = {}): T {
  if (reply.ok) return reply;
  const code = reply.code ?? 'REFUSED';
  throw new CliError(code, reply.message ?? `the messenger refused (${code})`, EXIT.error, details);
}
