import type { AttachmentResult, BrandwireClient, ImageStyle } from '@brandwire/client';
import { usageError } from './cli-error';
import { checkSendableFile, readRichEnvelope } from './input-files';
import { requireOk } from './results';

export interface SendInput {
  brandKey: string;
  userKey: string;
  text?: string | undefined;
  richJson?: string | undefined;
  files?: readonly string[] | undefined;
  imageStyle?: ImageStyle | undefined;
}

/** What `send` prints: `{ ok, brandKey, userKey, serial }`, and each bubble's result for attachments. */
export interface SendResult {
  ok: true;
  brandKey: string;
  userKey: string;
  serial: string | undefined;
  results?: AttachmentResult[];
}

/**
 * What `send --json` prints when some bubbles were delivered and some not (exit 3): `ok: false` with the code
 * PARTLY_DONE and how many of how many failed, keeping the serial of the first delivered bubble and every result.
 */
export interface PartlyDone {
  ok: false;
  error: string;
  code: 'PARTLY_DONE';
  brandKey: string;
  userKey: string;
  serial: string | undefined;
  results: AttachmentResult[];
}

/** A send that delivered only some of its bubbles as PartlyDone; nothing for one that delivered them all. */
export function partlyDone(result: SendResult): PartlyDone | undefined {
  const results = result.results ?? [];
  const failed = results.filter((item) => !item.ok).length;
  if (failed === 0) return undefined;
  const { brandKey, userKey, serial } = result;
  return { ok: false, error: `${failed} of ${results.length} bubbles were not delivered`, code: 'PARTLY_DONE', brandKey, userKey, serial, results };
}

type Plan = { kind: 'text'; text: string } | { kind: 'rich'; rich: string } | { kind: 'attachments'; files: readonly string[]; text: string | undefined };

/** Which endpoint a send uses: --file → attachments (text in the first bubble), --rich-json → rich, else text. */
export function planSend(input: SendInput): Plan {
  const files = input.files ?? [];
  if (input.richJson !== undefined && (input.text !== undefined || files.length > 0)) {
    throw usageError('--rich-json cannot be combined with --text or --file: the rich envelope carries its own text');
  }
  if (input.imageStyle !== undefined && files.length === 0) throw usageError('--image-style applies to --file images only');
  if (files.length > 0) return { kind: 'attachments', files: files.map((f) => checkSendableFile('--file', f)), text: input.text };
  if (input.richJson !== undefined) return { kind: 'rich', rich: readRichEnvelope(input.richJson) };
  if (input.text !== undefined && input.text !== '') return { kind: 'text', text: input.text };
  throw usageError('nothing to send: pass --text <text>, --rich-json <file> or --file <path>');
}

/**
 * Sends as planned, with the Idempotency-Key `idempotencyKey` (a repeat with it gets the first answer, never a
 * second bubble); a messenger refusal fails with its code and still names the serial.
 */
export async function sendMessage(client: BrandwireClient, input: SendInput, idempotencyKey: string): Promise<SendResult> {
  const plan = planSend(input);
  const target = { brandKey: input.brandKey, userKey: input.userKey };
  const options = { idempotencyKey };
  switch (plan.kind) {
    case 'text':
    case 'rich': {
      const reply = plan.kind === 'text' ? await client.send({ ...target, text: plan.text }, options) : await client.sendRich({ ...target, rich: plan.rich }, options);
      requireOk(reply, { ...target, serial: reply.serial });
      return { ok: true, ...target, serial: reply.serial };
    }
    case 'attachments': {
      const reply = await client.sendAttachments({
        ...target,
        files: plan.files,
        ...(plan.text !== undefined ? { text: plan.text } : {}),
        ...(input.imageStyle ? { imageStyle: input.imageStyle } : {}),
      }, options);
      const first = reply.results.find((r) => r.ok) ?? reply.results[0];
      const failed = reply.results.find((r) => !r.ok);
      requireOk({ ok: reply.ok, code: failed?.code, message: failed?.message ?? null }, { ...target, serial: first?.serial, results: reply.results });
      return { ok: true, ...target, serial: first?.serial, results: reply.results };
    }
    default: {
      const unreachable: never = plan;
      throw new Error(`unknown send plan ${JSON.stringify(unreachable)}`);
    }
  }
}
