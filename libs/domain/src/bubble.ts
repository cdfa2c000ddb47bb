/** Sent bubble state machine (sent -> deleted) and the rules of POST /api/agent/delete. */
export type BubbleKind = 'text' | 'image' | 'file' | 'rich' | 'consent';

export interface SentBubble {
  serial: string;
  kind: BubbleKind;
  text: string | null;
  sentAtMs: number;
  /** Serial shared by the bubbles of one multi-image send; null for a single bubble. */
  groupSerial: string | null;
  /** Position inside the group (0 for the first image, which carries the caption; 0 for a single bubble). */
  groupIndex: number;
  deletedAtMs: number | null;
}

export const DELETE_WINDOW_MS: number = 24 * 60 * 60 * 1000;
export const LOOKBACK_DEFAULT_S = 180,
  LOOKBACK_MIN_S = 10,
  LOOKBACK_MAX_S = 86400;

/** `withinSeconds` of a delete by text: absent means 180; otherwise an integer from 10 to 86400. */
export function validateLookback(seconds: unknown): { ok: true; seconds: number } | { ok: false; message: string } {
  if (seconds === undefined || seconds === null) return { ok: true, seconds: LOOKBACK_DEFAULT_S };
  if (typeof seconds === 'number' && Number.isInteger(seconds) && seconds >= LOOKBACK_MIN_S && seconds <= LOOKBACK_MAX_S) {
    return { ok: true, seconds };
  }
  return {
    ok: false,
    message: `withinSeconds must be an integer from ${LOOKBACK_MIN_S} to ${LOOKBACK_MAX_S} (default ${LOOKBACK_DEFAULT_S}).`,
  };
}

/** The answer to a delete of a bubble deleted before, by whichever check finds it. */
export function alreadyDeletedMessage(serial: string): string {
  return `Message ${serial} is already deleted.`;
}

/** Whether a bubble may be deleted now. Checked in this order: already deleted, not deletable, expired. */
export function checkDeletable(
  b: SentBubble,
  nowMs: number,
): { ok: true } | { ok: false; code: 'EXPIRED' | 'NOT_DELETABLE' | 'ALREADY_DELETED'; message: string } {
  if (b.deletedAtMs !== null) {
    return { ok: false, code: 'ALREADY_DELETED', message: alreadyDeletedMessage(b.serial) };
  }
  if (isUndeletableKind(b.kind)) {
    return {
      ok: false,
      code: 'NOT_DELETABLE',
      message: `Message ${b.serial} is a personal-info consent request and cannot be deleted.`,
    };
  }
  if (nowMs - b.sentAtMs > DELETE_WINDOW_MS) {
    return {
      ok: false,
      code: 'EXPIRED',
      message: `Message ${b.serial} was sent more than 24 hours ago and can no longer be deleted.`,
    };
  }
  return { ok: true };
}

/**
 * The bubble a delete by text targets: exact body match, sent within `lookbackSeconds` of now (inclusive), and
 * for an image group only its first image; the most recent one wins, also when it is deleted already (the delete
 * then answers that it is), so a delete sent twice never takes an older message with the same text. A bubble of
 * a kind that can never be deleted (a consent request) is passed over for any other match, and found only when
 * nothing else matches, so that the delete answers that it cannot be deleted rather than that nothing was sent.
 */
export function findBubbleByText(
  bubbles: readonly SentBubble[],
  text: string,
  nowMs: number,
  lookbackSeconds: number,
): SentBubble | undefined {
  const windowMs = lookbackSeconds * 1000;
  let best: SentBubble | undefined;
  let undeletable: SentBubble | undefined;
  for (const b of bubbles) {
    if (b.text !== text) continue;
    if (b.groupIndex !== 0) continue;
    if (nowMs - b.sentAtMs > windowMs) continue;
    if (isUndeletableKind(b.kind)) {
      if (undeletable === undefined || isMoreRecent(b, undeletable)) undeletable = b;
    } else if (best === undefined || isMoreRecent(b, best)) {
      best = b;
    }
  }
  return best ?? undeletable;
}

/** Kinds of bubble no delete may remove (spec, Delete rule 3). */
function isUndeletableKind(kind: BubbleKind): boolean {
  return kind === 'consent';
}

function isMoreRecent(a: SentBubble, b: SentBubble): boolean {
  return a.sentAtMs !== b.sentAtMs ? a.sentAtMs > b.sentAtMs : a.serial > b.serial;
}
