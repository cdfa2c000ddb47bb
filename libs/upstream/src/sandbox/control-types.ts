/** Shapes of the sandbox control API (`/_sandbox/...`), shared by the routes and SandboxControlClient. */

import type { ConsultationSchedule } from '@brandwire/domain';

export type EndReason = 'agent_end' | 'bot' | 'block' | 'customer_left' | 'expired';

export type CustomerAttachmentType = 'photo' | 'video' | 'audio' | 'file';

/** Why a control call was refused. */
export type SandboxControlCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'NO_ROUTE'
  | 'EMPTY'
  | 'UNKNOWN_CHANNEL'
  | 'CHAT_DEACTIVATED'
  | 'BLOCKED'
  | 'NO_SESSION'
  | 'NOT_FOUND'
  | 'NO_PENDING_CONSENT'
  | 'NOT_TAPPABLE'
  | 'NOT_DELETABLE'
  /** the sandbox could not write its state (the clock file): nothing was changed; HTTP 503 */
  | 'STATE_NOT_WRITABLE'
  | 'INTERNAL';

export interface SandboxFailure {
  ok: false;
  code: SandboxControlCode;
  message: string;
}

/** One callback the control call caused, with the partner's answer to its first send. */
export interface CallbackRecord {
  path: string;
  /** HTTP status of the partner's answer; 0 when it could not be delivered or was not sent yet (see `error`, `queued`) */
  status: number;
  /** the partner's JSON answer (or its text when not JSON; null when none) */
  body: unknown;
  error?: string;
  /**
   * set when the callback has not reached the partner yet and the sandbox sends it later, in order:
   * `repeat`: it got no 2xx answer (no answer, a timeout or a 5xx, shown in `status` and `error`) and is sent
   * again; `behind`: not sent yet, it waits behind an earlier callback of the same customer that is repeated.
   * A 4xx answer is final: never repeated, no `queued`.
   */
  queued?: 'repeat' | 'behind';
}

export interface CallbacksResult {
  ok: true;
  callbacks: CallbackRecord[];
}

export type SandboxResult<T> = T | SandboxFailure;

export interface ChannelSettings {
  /** 'kakao' or any other channel type (consent requests work on 'kakao' only) */
  type: string;
  chatbotBuilder: boolean;
  /** texts to change; the others keep their current (at first the default) wording */
  systemMessages?: SystemMessagesPatch;
}

/** The `auto_answer` codes whose wording the channel sets: S1 unavailable, S2 agent away, S3 ended for no response, S4 waiting. */
export type AutoAnswerCode = 'S1' | 'S2' | 'S3' | 'S4';

/** Texts the messenger shows the customer on its own, as set per channel in the messenger's admin centre. */
export interface SystemMessages {
  /** shown when the customer opens the chat room */
  greeting: string;
  /** shown on a customer message outside the consultation hours */
  outOfHours: string;
  /** S1 is also what a customer sees who writes while chat is deactivated */
  autoAnswers: Record<AutoAnswerCode, string>;
}

export interface SystemMessagesPatch {
  greeting?: string;
  outOfHours?: string;
  autoAnswers?: Partial<Record<AutoAnswerCode, string>>;
}

/** A channel as the messenger keeps it (`GET /_sandbox/channels/:senderKey`). */
export interface ChannelInfo {
  ok: true;
  senderKey: string;
  type: string;
  chatbotBuilder: boolean;
  /** false while chat is deactivated (partner call /v1/chat/deactivate) */
  active: boolean;
  /** consultation hours; null = always open */
  schedule: ConsultationSchedule | null;
  systemMessages: SystemMessages;
}

export interface CustomerMessageInput {
  senderKey: string;
  text?: string;
  attachments?: { type: CustomerAttachmentType; caption?: string }[];
  /** meta of the button that opened the chat; used when this message starts a consultation */
  reference?: Record<string, unknown>;
}

export type BubbleFrom = 'agent' | 'customer' | 'system';
export type ChatBubbleKind = 'text' | 'image' | 'file' | 'rich' | 'consent' | 'notice';

export interface ChatBubble {
  serial: string;
  from: BubbleFrom;
  kind: ChatBubbleKind;
  text?: string;
  imageUrl?: string;
  deleted: boolean;
  /** the buttons in the bubble */
  buttons?: ChatButton[];
  /** the row of quick replies under the bubble, in the order a tap's `quickReply` index counts them */
  quickReplies?: ChatButton[];
  /** the entries of a list bubble (ITEM_LIST, WIDE_ITEM_LIST) */
  items?: ChatListItem[];
  /** the cards of a CAROUSEL_FEED bubble */
  cards?: ChatCard[];
}

/** A button or quick reply as the customer sees it. */
export interface ChatButton {
  label: string;
  /** what a tap does, as the bubble has it: BK, WL, AL, BT, BF, MD or AC */
  type: string;
  /** the web link a tap opens (the mobile one when the button has both) */
  url?: string;
}

export interface ChatListItem {
  title?: string;
  description?: string;
  imageUrl?: string;
  /** the web link a tap on the entry opens */
  url?: string;
}

export interface ChatCard {
  header?: string;
  message?: string;
  imageUrl?: string;
  buttons?: ChatButton[];
}

export interface ChatResult {
  ok: true;
  bubbles: ChatBubble[];
}

/** `GET /_sandbox/info`: it is the sandbox, its clock, and which start of it answers. */
export interface SandboxInfo {
  sandbox: true;
  now: number;
  /** random per start of the sandbox: a new one means it started again (and may have lost what it knew) */
  bootId: string;
}

export interface ClockResult {
  ok: true;
  now: number;
  callbacks: CallbackRecord[];
}
