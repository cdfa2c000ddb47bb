/** Consultation-count billing: sending commands consume the plan's count, at most once per consultation per day. */
export type Operation =
  | 'send_text'
  | 'send_rich'
  | 'send_image'
  | 'send_attachments'
  | 'consent_request'
  | 'delete'
  | 'end'
  | 'end_with_bot'
  | 'block'
  | 'unblock'
  | 'upload'
  | 'lookup'
  | 'settings';

export type ChargeDecision = { kind: 'free' } | { kind: 'charge' } | { kind: 'exhausted'; message: string };

export const PLAN_EXHAUSTED_MESSAGE =
  "The plan's consultation count is used up; sending is blocked until the plan is raised.";

export function isBillable(op: Operation): boolean {
  switch (op) {
    case 'send_text':
    case 'send_rich':
    case 'send_image':
    case 'send_attachments':
    case 'consent_request':
      return true;
    case 'delete':
    case 'end':
    case 'end_with_bot':
    case 'block':
    case 'unblock':
    case 'upload':
    case 'lookup':
    case 'settings':
      return false;
    default: {
      const unreachable: never = op;
      throw new Error(`Unknown operation: ${String(unreachable)}`);
    }
  }
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format;
}

/** The calendar day ('YYYY-MM-DD') of an instant in an IANA time zone. Throws RangeError for an unknown zone. */
export function billingDay(nowMs: number, timeZone: string): string {
  const parts = dayFormat(timeZone).formatToParts(new Date(nowMs));
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year').padStart(4, '0')}-${part('month')}-${part('day')}`;
}

export function decideCharge(i: { op: Operation; servedToday: boolean; used: number; limit: number }): ChargeDecision {
  if (!isBillable(i.op) || i.servedToday) return { kind: 'free' };
  if (i.used >= i.limit) return { kind: 'exhausted', message: PLAN_EXHAUSTED_MESSAGE };
  return { kind: 'charge' };
}
