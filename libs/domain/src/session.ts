import { UpstreamCode } from './upstream-codes';

/** Consultation session state machine ("States and transitions", plus expiry and block from the upstream notes). */
export type SessionState = 'none' | 'in_progress' | 'ended' | 'expired';

export type SessionEvent =
  | { type: 'customer_message' }
  | { type: 'agent_end' }
  | { type: 'end_with_bot' }
  | { type: 'bt_tap'; chatbotBuilder: boolean }
  | { type: 'block' }
  | { type: 'customer_left' }
  | { type: 'expire' };

export type SessionEffect = 'new_consultation' | 'ended' | 'expired' | 'bot_event';

export interface SessionTransition {
  next: SessionState;
  effects: SessionEffect[];
}

const HOUR_MS = 60 * 60 * 1000;

/** A session lives 30 days after the customer's last message, counted from the next full hour. */
export const SESSION_LIFETIME_MS: number = 30 * 24 * HOUR_MS;

export function sessionTransition(state: SessionState, event: SessionEvent): SessionTransition {
  const stay: SessionTransition = { next: state, effects: [] };
  switch (event.type) {
    case 'customer_message':
      return state === 'in_progress' ? stay : { next: 'in_progress', effects: ['new_consultation'] };
    case 'agent_end':
    case 'block':
    case 'customer_left':
      return state === 'in_progress' ? { next: 'ended', effects: ['ended'] } : stay;
    case 'end_with_bot':
      return state === 'in_progress' ? { next: 'ended', effects: ['ended', 'bot_event'] } : stay;
    case 'bt_tap':
      return state === 'in_progress' && event.chatbotBuilder ? { next: 'ended', effects: ['ended', 'bot_event'] } : stay;
    case 'expire':
      return state === 'in_progress' ? { next: 'expired', effects: ['expired'] } : stay;
    default: {
      const unreachable: never = event;
      throw new Error(`Unknown session event: ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Whether an agent send may go out: a blocked customer gives -511 first, a session not in progress -502. */
export function sendCheck(state: SessionState, blocked: boolean): { ok: true } | { ok: false; code: '-502' | '-511' } {
  if (blocked) return { ok: false, code: UpstreamCode.BlockedUserMessage };
  if (state !== 'in_progress') return { ok: false, code: UpstreamCode.InvalidSession };
  return { ok: true };
}

/** The last customer message time rounded up to the next full UTC hour (a full hour goes to the next one), plus 30 days. */
export function sessionExpiresAt(lastCustomerMessageMs: number): number {
  return (Math.floor(lastCustomerMessageMs / HOUR_MS) + 1) * HOUR_MS + SESSION_LIFETIME_MS;
}
