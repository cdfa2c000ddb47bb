import { ConsultationSchedule } from '@brandwire/domain';
import { BubbleFrom, ChatBubbleKind, EndReason, SystemMessages } from './control-types';
import { defaultSystemMessages } from './system-messages';

/** Bubbles kept per customer; older ones are forgotten (the sandbox is not an archive). */
const MAX_BUBBLES = 5_000;
const BUBBLE_TRIM = 500;
/** Whole texts of long customer messages kept for their .txt url; the oldest are forgotten past this many. */
const MAX_LONG_TEXTS = 10_000;

export interface Bubble {
  serial: string;
  from: BubbleFrom;
  kind: ChatBubbleKind;
  text: string | null;
  imageUrl: string | null;
  deleted: boolean;
  sentAt: number;
  /** quick replies of an agent bubble (as sent), for taps */
  quickReplies: readonly Record<string, unknown>[];
  /** what the chat shows of the buttons of an agent bubble (see shownButton) */
  buttons: readonly Record<string, unknown>[];
  /** what the chat shows of the entries of a list bubble's `attachment.item.list` */
  items: readonly Record<string, unknown>[];
  /** what the chat shows of the cards of a CAROUSEL_FEED bubble */
  cards: readonly Record<string, unknown>[];
}

/** The parts only an agent bubble has; a new bubble without them has none. */
type BubbleParts = 'quickReplies' | 'buttons' | 'items' | 'cards';
export type NewBubble = Omit<Bubble, 'deleted' | BubbleParts> & Partial<Pick<Bubble, BubbleParts>>;

export interface Session {
  id: string;
  startedAt: number;
  expiresAt: number;
  reference: Record<string, unknown>;
  /** the consent bubble sent in this session (requested once per session) */
  consentBubble: Bubble | null;
  consentGiven: boolean;
}

export interface PastSession {
  reference: Record<string, unknown>;
  startedAt: number;
  endedAt: number;
  reason: EndReason;
  botEvent: string | null;
}

export interface Customer {
  readonly key: string;
  readonly senderKey: string;
  readonly userKey: string;
  blocked: boolean;
  session: Session | null;
  last: PastSession | null;
  bubbles: Bubble[];
  readonly bySerial: Map<string, Bubble>;
}

export interface Channel {
  readonly senderKey: string;
  type: string;
  chatbotBuilder: boolean;
  active: boolean;
  /** consultation hours; null = always open */
  schedule: ConsultationSchedule | null;
  systemMessages: SystemMessages;
  readonly customers: Map<string, Customer>;
  /** serial numbers already used by partner sends on this sender */
  readonly serials: Set<string>;
}

export interface SandboxCounters {
  session: number;
  customerSerial: number;
  system: number;
  longText: number;
}

/** All sandbox state, in memory; every lookup is by key (no scans over customers). */
export class SandboxState {
  readonly channels = new Map<string, Channel>();
  callbackUrl: string | null = null;
  /**
   * Session ids, like the messenger's, are never reused, also across restarts of the sandbox against the same
   * partner data: the counter starts from the wall clock in microseconds (room for 1,000 sessions per
   * millisecond of uptime before it would reach the next start's first id; 16 digits, exact as a double).
   */
  private sessionSeq: number;
  private customerSerialSeq = 7_000_000_000_000;
  private systemSeq = 0;
  private longTextSeq = 0;
  /** the whole texts of long customer messages, by file name (`<n>-<random>.txt`), oldest first */
  readonly longTexts = new Map<string, string>();

  constructor(startedAtMs: number = Date.now()) {
    this.sessionSeq = Math.floor(startedAtMs) * 1_000;
  }

  setChannel(senderKey: string, type: string, chatbotBuilder: boolean): Channel {
    const existing = this.channels.get(senderKey);
    if (existing) {
      existing.type = type;
      existing.chatbotBuilder = chatbotBuilder;
      return existing;
    }
    const channel: Channel = {
      senderKey,
      type,
      chatbotBuilder,
      active: true,
      schedule: null,
      systemMessages: defaultSystemMessages(),
      customers: new Map(),
      serials: new Set(),
    };
    this.channels.set(senderKey, channel);
    return channel;
  }

  /** The customer of a channel, created on first use. */
  customer(channel: Channel, userKey: string): Customer {
    let c = channel.customers.get(userKey);
    if (!c) {
      c = {
        key: `${channel.senderKey}\n${userKey}`,
        senderKey: channel.senderKey,
        userKey,
        blocked: false,
        session: null,
        last: null,
        bubbles: [],
        bySerial: new Map(),
      };
      channel.customers.set(userKey, c);
    }
    return c;
  }

  /** The counters ids and serials are drawn from, to be kept across a restart (see snapshot.ts). */
  get counters(): SandboxCounters {
    return { session: this.sessionSeq, customerSerial: this.customerSerialSeq, system: this.systemSeq, longText: this.longTextSeq };
  }

  /** Continues from counters kept by an earlier run; never goes back (ids are never reused). */
  continueFrom(kept: SandboxCounters): void {
    this.sessionSeq = Math.max(this.sessionSeq, kept.session);
    this.customerSerialSeq = Math.max(this.customerSerialSeq, kept.customerSerial);
    this.systemSeq = Math.max(this.systemSeq, kept.system);
    this.longTextSeq = Math.max(this.longTextSeq, kept.longText);
  }

  newSessionId(): string {
    this.sessionSeq += 1;
    return String(this.sessionSeq);
  }

  /** Keeps a long customer text and returns its file name. */
  keepLongText(text: string, random: string): string {
    this.longTextSeq += 1;
    const name = `${this.longTextSeq}-${random}.txt`;
    this.longTexts.set(name, text);
    if (this.longTexts.size > MAX_LONG_TEXTS) {
      const oldest = this.longTexts.keys().next();
      if (!oldest.done) this.longTexts.delete(oldest.value);
    }
    return name;
  }

  newCustomerSerial(): number {
    this.customerSerialSeq += 1;
    return this.customerSerialSeq;
  }

  newSystemSerial(): string {
    this.systemSeq += 1;
    return `sys-${this.systemSeq}`;
  }

  addBubble(c: Customer, b: NewBubble): Bubble {
    const bubble: Bubble = { ...b, deleted: false, quickReplies: b.quickReplies ?? [], buttons: b.buttons ?? [], items: b.items ?? [], cards: b.cards ?? [] };
    c.bubbles.push(bubble);
    c.bySerial.set(bubble.serial, bubble);
    // forget the oldest in chunks, so a long chat does not cost a copy per bubble
    if (c.bubbles.length > MAX_BUBBLES + BUBBLE_TRIM) {
      const dropped = c.bubbles.splice(0, BUBBLE_TRIM);
      for (const d of dropped) c.bySerial.delete(d.serial);
    }
    return bubble;
  }

  addNotice(c: Customer, text: string, at: number): Bubble {
    return this.addBubble(c, { serial: this.newSystemSerial(), from: 'system', kind: 'notice', text, imageUrl: null, sentAt: at });
  }
}
