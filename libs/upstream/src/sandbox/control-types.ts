/** Shapes of the sandbox control API (`/_sandbox/...`), shared by the routes and SandboxControlClient. */

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
  | 'INTERNAL';

export interface SandboxFailure {
  ok: false;
  code: SandboxControlCode;
  message: string;
}

/** One callback POSTed to the partner during the control call, with the partner's answer. */
export interface CallbackRecord {
  path: string;
  /** HTTP status of the partner's answer; 0 when it could not be delivered (see `error`) */
  status: number;
  /** the partner's JSON answer (or its text when not JSON; null when none) */
  body: unknown;
  error?: string;
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
}

export interface ChatResult {
  ok: true;
  bubbles: ChatBubble[];
}

export interface ClockResult {
  ok: true;
  now: number;
  callbacks: CallbackRecord[];
}
