import type { JournalKind } from './journal';

/** Kinds of the inbound signals: the journal kinds plus the consent result. */
export const SIGNAL_KINDS = ['message', 'reference', 'expired', 'ended', 'agent', 'deleted', 'personal_info'] as const;
export type SignalKind = (typeof SIGNAL_KINDS)[number];

/** A signal as the client receives it: no conversation content, only what tells it to act. */
export interface SignalPayload {
  kind: SignalKind;
  seq: number;
  brandKey: string;
  userKey: string;
  timestampUnixMs: number;
  serial?: string;
  /** every bubble of an agent send that delivered several as one item (the images of an attachment send), in order */
  serials?: string[];
  phase?: 'accepted';
  reference?: Record<string, unknown>;
  lastReference?: Record<string, unknown> | null;
  nickname?: string;
  phoneNumber?: string;
  /** on `ended`, when the service asked for the end: why */
  reason?: AskedEndReason;
  /** on `ended` with reason `bot`: the bot event handed off to, when one was named */
  botEvent?: string;
}

/** The ends the service asks the messenger for: an agent's end, a hand-off to the bot, a block. */
export const ASKED_END_REASONS = ['agent_end', 'bot', 'block'] as const;
export type AskedEndReason = (typeof ASKED_END_REASONS)[number];

function isAskedEndReason(value: unknown): value is AskedEndReason {
  return (ASKED_END_REASONS as readonly unknown[]).includes(value);
}

/** One signal of a journal item; `part` orders the signals of the same item (an agent send has two). */
export interface SignalDraft {
  part: number;
  payload: SignalPayload;
}

export interface JournaledEvent {
  channelKey: string;
  seq: number;
  userKey: string;
  kind: JournalKind;
  timestampUnixMs: number;
  serial: string | null;
  /** the serials of the item's bubbles, when it has more than one */
  serials?: readonly string[];
  meta: Record<string, unknown> | null;
}

/**
 * The signals a journal item produces: one per item, and two for an agent send (first the acceptance with
 * `phase: "accepted"`, then the journal entry), both with the item's `seq` and the send's `serial` (and `serials`,
 * every bubble's, when the item holds several: a delete of any of them names its own).
 */
export function signalsOf(e: JournaledEvent): SignalDraft[] {
  const base: SignalPayload = { kind: e.kind, seq: e.seq, brandKey: e.channelKey, userKey: e.userKey, timestampUnixMs: e.timestampUnixMs };
  switch (e.kind) {
    case 'agent': {
      const sent = { ...(e.serial ? { serial: e.serial } : {}), ...(e.serials && e.serials.length > 1 ? { serials: [...e.serials] } : {}) };
      return [
        { part: 0, payload: { ...base, ...sent, phase: 'accepted' } },
        { part: 1, payload: { ...base, ...sent } },
      ];
    }
    case 'deleted':
      return [{ part: 0, payload: { ...base, ...(e.serial ? { serial: e.serial } : {}) } }];
    case 'reference': {
      const reference = (e.meta?.['reference'] as Record<string, unknown> | undefined) ?? {};
      const lastReference = (e.meta?.['lastReference'] as Record<string, unknown> | null | undefined) ?? null;
      return [{ part: 0, payload: { ...base, reference, lastReference } }];
    }
    case 'ended': {
      // an end the messenger reported alone (the customer left, another tool) has no known reason
      const reason = e.meta?.['reason'];
      const botEvent = e.meta?.['botEvent'];
      if (!isAskedEndReason(reason)) return [{ part: 0, payload: base }];
      return [{ part: 0, payload: { ...base, reason, ...(reason === 'bot' && typeof botEvent === 'string' ? { botEvent } : {}) } }];
    }
    case 'message':
    case 'expired':
      return [{ part: 0, payload: base }];
    default: {
      const unreachable: never = e.kind;
      throw new Error(`unknown journal kind ${String(unreachable)}`);
    }
  }
}

/** The stable id of a signal (the webhook-id and the SSE event id): `<seq>.<part>` within its channel. */
export function signalCursor(seq: number, part: number): string {
  return `${seq}.${part}`;
}

/** Reads `after` / `Last-Event-ID`: "12" (after every signal of seq 12) or "12.0" (after that part). */
export function parseSignalCursor(raw: string): { seq: number; part: number } | undefined {
  const match = /^(\d{1,15})(?:\.(\d{1,3}))?$/.exec(raw.trim());
  if (!match) return undefined;
  return { seq: Number(match[1]), part: match[2] === undefined ? Number.MAX_SAFE_INTEGER : Number(match[2]) };
}
