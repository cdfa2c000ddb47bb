/** Retrieval shapes (field names exactly as in the spec) and their small helpers. */
export const JOURNAL_KINDS = ['message', 'reference', 'expired', 'agent', 'ended', 'deleted'] as const;

export type JournalKind = (typeof JOURNAL_KINDS)[number];

export interface MessageItem {
  seq: number;
  userKey: string;
  sessionId: string;
  kind: JournalKind;
  text: string;
  timestampUnixMs: number;
  /** Only on outbound (`agent`) and `deleted` items. */
  serial?: string;
  /** Only on a deleted outbound message. */
  deleted?: true;
}

export interface RoomSummary {
  userKey: string;
  lastSeq: number;
  lastText: string;
  lastKind: JournalKind;
  lastTimestampUnixMs: number;
  count: number;
  ended: boolean;
}

export type LineRole = 'customer' | 'agent' | 'bot' | 'system';

export interface ConversationLine {
  role: LineRole;
  text: string;
  at: string;
  /** `true` only on an agent line whose message was deleted */
  deleted?: true;
}

/** The text of a `deleted` item: a notice in the conversation, at the time of the deletion, not of its session's end. */
export const DELETION_NOTICE = 'Message deleted';

/** A system line that tells of a deletion, made at any time after the deleted message (even after the end). */
export function isDeletionNotice(line: ConversationLine): boolean {
  return line.role === 'system' && line.text === DELETION_NOTICE;
}

export const MAX_MESSAGES_DEFAULT = 100,
  MAX_MESSAGES_LIMIT = 300;

export function isJournalKind(x: unknown): x is JournalKind {
  return typeof x === 'string' && (JOURNAL_KINDS as readonly string[]).includes(x);
}

export function lineRoleOf(kind: JournalKind, byBot: boolean): LineRole {
  switch (kind) {
    case 'message':
      return 'customer';
    case 'agent':
      return byBot ? 'bot' : 'agent';
    case 'reference':
    case 'ended':
    case 'expired':
    case 'deleted':
      return 'system';
    default: {
      const unreachable: never = kind;
      throw new Error(`Unknown journal kind: ${String(unreachable)}`);
    }
  }
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

function offsetFormat(timeZone: string): Intl.DateTimeFormat {
  let format = offsetFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormats.set(timeZone, format);
  }
  return format;
}

const OFFSET_PATTERN = /^GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** The zone's UTC offset at that instant, in ms and as '+09:00' (seconds only for historic local mean times). */
function offsetAt(ms: number, timeZone: string): { offsetMs: number; text: string } {
  const name = offsetFormat(timeZone)
    .formatToParts(new Date(ms))
    .find((p) => p.type === 'timeZoneName')?.value;
  const match = name === undefined ? null : OFFSET_PATTERN.exec(name);
  if (!match) throw new RangeError(`Cannot read the UTC offset of ${timeZone}: ${String(name)}`);
  const [, sign = '+', hh = '00', mm = '00', ss] = match;
  const seconds = (Number(hh) * 3600 + Number(mm) * 60 + Number(ss ?? 0)) * (sign === '-' ? -1 : 1);
  return { offsetMs: seconds * 1000, text: `${sign}${hh}:${mm}${ss === undefined ? '' : `:${ss}`}` };
}

/** ISO 8601 with milliseconds and the zone's numeric offset at that instant: '2026-11-21T17:00:00.000+09:00'. */
export function isoWithOffset(ms: number, timeZone: string): string {
  if (!Number.isFinite(ms)) throw new RangeError(`Invalid time: ${ms}`);
  const { offsetMs, text } = offsetAt(ms, timeZone);
  return `${new Date(ms + offsetMs).toISOString().slice(0, -1)}${text}`;
}
