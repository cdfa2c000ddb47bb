import { sessionExpiresAt } from '@brandwire/domain';
import { ShiftableClock } from '../clock';
import { CallbackEvent, CustomerEvents } from './callbacks';
import { ChatBubbleKind, CustomerAttachmentType, EndReason } from './control-types';
import { ExpiryHeap } from './expiry-heap';
import { Customer, SandboxState } from './state';


/** One customer message as the partner receives it, and how the customer's chat shows it. */
export interface CustomerMessage {
  type: 'text' | CustomerAttachmentType;
  contents: unknown[];
  extra?: string;
  /** a long text's whole text, as a .txt file on the messenger's host (`contents` holds it cut short) */
  attachment?: { url: string };
  bubble: { kind: ChatBubbleKind; text: string | null; imageUrl: string | null };
}

const END_NOTICES: Readonly<Record<EndReason, string>> = {
  agent_end: 'The consultation has ended.',
  bot: 'The consultation was handed over to the chatbot.',
  block: 'The consultation has ended.',
  customer_left: 'You left the consultation.',
  expired: 'The consultation has ended because of inactivity.',
};

/**
 * Consultation sessions as the messenger keeps them: started by a customer message, extended by each one,
 * ended by the agent, the bot, a block, the customer or the 30 days passing. Every change returns the
 * callback events it causes; the caller hands them to the CallbackDispatcher.
 */
export class SessionEngine {
  private readonly heap = new ExpiryHeap<{ customer: Customer; sessionId: string }>();

  constructor(
    private readonly state: SandboxState,
    private readonly clock: ShiftableClock,
  ) {}

  now(): number {
    return this.clock.now();
  }

  /** Ends the customer's session if its time is up (lazy check on each call that touches the customer). */
  expireIfDue(c: Customer): CallbackEvent[] {
    const s = c.session;
    if (!s || this.clock.now() < s.expiresAt) return [];
    return this.end(c, 'expired', null, s.expiresAt).events;
  }

  /** Watches the session a customer brought from an earlier run, so that it expires on time. */
  resume(c: Customer): void {
    if (c.session) this.heap.push(c.session.expiresAt, { customer: c, sessionId: c.session.id });
  }

  /** Ends every session whose time is up, earliest first (heap: no scan over all customers). */
  sweep(): CustomerEvents[] {
    const now = this.clock.now();
    const out: CustomerEvents[] = [];
    for (let due = this.heap.popDue(now); due; due = this.heap.popDue(now)) {
      const s = due.customer.session;
      // stale entries (session ended or extended since) are skipped; an extended session has its own entry
      if (!s || s.id !== due.sessionId || s.expiresAt > now) continue;
      out.push({ key: due.customer.key, events: this.end(due.customer, 'expired', null, s.expiresAt).events });
    }
    return out;
  }

  /** The customer writes: starts a consultation when none is in progress, then one `/message` per message. */
  customerWrites(c: Customer, messages: readonly CustomerMessage[], reference?: Record<string, unknown>): CallbackEvent[] {
    const now = this.clock.now();
    const events = this.expireIfDue(c);
    let session = c.session;
    if (!session) {
      session = {
        id: this.state.newSessionId(),
        startedAt: now,
        expiresAt: 0,
        reference: reference ?? {},
        consentBubble: null,
        consentGiven: false,
      };
      c.session = session;
      // as the messenger: `reference` when a button opened the chat, else `last_reference` (when there was one)
      const opened = Object.keys(session.reference).length > 0;
      const last = opened ? null : lastReferenceOf(c);
      events.push({
        path: 'reference',
        body: {
          user_key: c.userKey,
          sender_key: c.senderKey,
          session_id: session.id,
          time: now,
          app_user_id: null,
          ...(opened ? { reference: session.reference } : {}),
          ...(last ? { last_reference: last } : {}),
        },
      });
    }
    for (const m of messages) {
      const serial = this.state.newCustomerSerial();
      this.state.addBubble(c, { serial: String(serial), from: 'customer', sentAt: now, ...m.bubble });
      const body: Record<string, unknown> = {
        user_key: c.userKey,
        sender_key: c.senderKey,
        session_id: session.id,
        time: now,
        serial_number: serial,
        type: m.type,
        contents: m.contents,
      };
      if (m.extra !== undefined) body['extra'] = m.extra;
      if (m.attachment !== undefined) body['attachment'] = m.attachment;
      events.push({ path: 'message', body });
    }
    const expiresAt = sessionExpiresAt(now);
    if (expiresAt !== session.expiresAt) {
      session.expiresAt = expiresAt;
      this.heap.push(expiresAt, { customer: c, sessionId: session.id });
    }
    return events;
  }

  /**
   * Ends the session in progress, if any, at `now` (a lapsed session at its expiry instant, however far the clock
   * was moved past it: that is when the messenger ended it).
   */
  end(c: Customer, reason: EndReason, botEvent: string | null = null, now = this.clock.now()): { sessionId?: string; events: CallbackEvent[] } {
    const s = c.session;
    if (!s) return { events: [] };
    c.session = null;
    c.last = { reference: s.reference, startedAt: s.startedAt, endedAt: now, reason, botEvent };
    this.state.addNotice(c, END_NOTICES[reason], now);
    // as the messenger's: no cause (the reason stays here, for the next consultation's last_reference)
    const body = { user_key: c.userKey, sender_key: c.senderKey, session_id: s.id, time: now };
    return { sessionId: s.id, events: [{ path: 'expired_session', body }] };
  }
}

/** The previous session's `extra`, bot hand-off and start, the fields the messenger names (null when there was none). */
function lastReferenceOf(c: Customer): Record<string, unknown> | null {
  const last = c.last;
  if (!last) return null;
  return { extra: last.reference['extra'] ?? null, bot: last.reason === 'bot', bot_event: last.botEvent, created_at: last.startedAt };
}
