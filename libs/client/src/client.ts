import {
  CHAT,
  CHAT_TOGGLE,
  CONVERSATION,
  CONVERSATIONS,
  CREATED_KEY,
  DEVICE_CODE,
  DEVICE_TOKEN,
  ENVELOPED,
  EXPORT_PAGE,
  KEYS,
  ME,
  MESSAGES,
  PLAN,
  PROFILE,
  REVOKED_KEY,
  ROOMS,
  SCHEDULE,
  SEND,
  SEND_ATTACHMENTS,
  SIGNALS,
  SYSTEM_MESSAGES,
  UPLOAD,
  WEBHOOK,
} from './answer-shapes';
import { ApiError } from './errors';
import { type ClientOptions, Http } from './http';
import type { CreatedKeyResponse, DeviceCode, DeviceToken, DeviceTokenPoll, DeviceTokenRefusal, KeysResponse, MeResponse, NewKeyInput, RevokedKeyResponse } from './account-types';
import type { DeleteResponse, SendAttachmentsResponse, SendResponse, SessionActionResponse, UploadFileResponse, UploadImageResponse } from './outbound-types';
import type { BrandConversations, ConversationExportPage, ConversationResponse, MessagesResponse, RoomsResponse, SignalsResponse } from './retrieval-types';
import type { ChatStateResponse, ChatToggleResponse, PlanResponse, ProfileResponse, Schedule, ScheduleResponse, SystemMessagesResponse, WebhookSettings } from './settings-types';

export interface Target {
  brandKey: string;
  userKey: string;
}

export type ImageStyle = 'rich' | 'plain';
export type FileType = 'file' | 'audio' | 'video';

/** `idempotencyKey`: the send's Idempotency-Key (1 to 255 visible ASCII characters): a repeat with it gets the first answer. */
export interface SendOptions {
  idempotencyKey?: string;
}

const enc = encodeURIComponent;

function idempotencyHeader(options: SendOptions): Record<string, string> {
  return options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey };
}

/**
 * A typed client of the Brandwire REST API: one method per endpoint, returning the REST JSON unchanged.
 * Error envelopes throw ApiError; no answer throws NetworkError; a call that `options.signal` ended rejects with the
 * signal's reason (an AbortError); a 2xx answer without the fields the service's
 * answer has (an endpoint that is not Brandwire) throws ApiError `BAD_RESPONSE` naming what it lacked. Messenger
 * rejections of a send are HTTP 200 with `ok: false` and are returned, not thrown, as the REST API returns them.
 */
export class BrandwireClient {
  private readonly http: Http;

  constructor(readonly options: ClientOptions) {
    this.http = new Http(options);
  }

  get endpoint(): string {
    return this.options.endpoint;
  }

  me(): Promise<MeResponse> {
    return this.http.get('/api/agent/me', ME);
  }

  // keys
  /** The keys this key manages (an Admin key: its own and those of its brands; any other key: itself), `current` marking this one. */
  keys(): Promise<KeysResponse> {
    return this.http.get('/api/agent/keys', KEYS);
  }

  /** Revokes a key for good: any key itself, an Admin key also one it lists. Another key below Admin: FORBIDDEN; one not listed: NOT_FOUND. */
  /** A new key (Admin): its token is in this answer only. */
  createKey(input: NewKeyInput): Promise<CreatedKeyResponse> {
    return this.http.post('/api/agent/keys', CREATED_KEY, input);
  }

  revokeKey(id: string): Promise<RevokedKeyResponse> {
    return this.http.delete(`/api/agent/keys/${enc(id)}`, REVOKED_KEY);
  }

  // outbound
  /** `idempotencyKey`: a repeat of this send (after a crash, say) gets the first answer instead of a second bubble. */
  send(input: Target & { text: string }, options: SendOptions = {}): Promise<SendResponse> {
    return this.http.post('/api/agent/send', SEND, input, idempotencyHeader(options));
  }

  sendRich(input: Target & { rich: string }, options: SendOptions = {}): Promise<SendResponse> {
    return this.http.post('/api/agent/send/rich', SEND, input, idempotencyHeader(options));
  }

  /** `idempotencyKey`: a repeat with the same fields and files' contents gets the first answer. */
  sendAttachments(input: Target & { files: readonly string[]; text?: string; imageStyle?: ImageStyle }, options: SendOptions = {}): Promise<SendAttachmentsResponse> {
    const fields = { brandKey: input.brandKey, userKey: input.userKey, text: input.text, imageStyle: input.imageStyle };
    return this.http.multipart('/api/agent/send/attachments', SEND_ATTACHMENTS, fields, input.files.map((path) => ({ field: 'files', path })), idempotencyHeader(options));
  }

  sendImage(input: Target & { imageUrl: string }): Promise<SendResponse> {
    return this.http.post('/api/agent/send/image', SEND, input);
  }

  delete(input: Target & { serial?: string; text?: string; withinSeconds?: number }): Promise<DeleteResponse> {
    return this.http.post('/api/agent/delete', ENVELOPED, input);
  }

  end(input: Target & { greeting?: string }): Promise<SessionActionResponse> {
    return this.http.post('/api/agent/end', ENVELOPED, input);
  }

  endWithBot(input: Target & { botEvent?: string }): Promise<SessionActionResponse> {
    return this.http.post('/api/agent/end-with-bot', ENVELOPED, input);
  }

  requestPersonalInfo(input: Target): Promise<SendResponse> {
    return this.http.post('/api/agent/personal-info/request', SEND, input);
  }

  block(input: Target): Promise<SessionActionResponse> {
    return this.http.post('/api/agent/block', ENVELOPED, input);
  }

  unblock(input: Target): Promise<SessionActionResponse> {
    return this.http.post('/api/agent/unblock', ENVELOPED, input);
  }

  uploadImage(input: { brand: string; file: string; imageType?: ImageStyle }): Promise<UploadImageResponse> {
    return this.http.multipart('/api/agent/upload/image', UPLOAD, { brand: input.brand, imageType: input.imageType }, [{ field: 'file', path: input.file }]);
  }

  uploadFile(input: { brand: string; file: string; fileType: FileType }): Promise<UploadFileResponse> {
    return this.http.multipart('/api/agent/upload/file', UPLOAD, { brand: input.brand, fileType: input.fileType }, [{ field: 'file', path: input.file }]);
  }

  // retrieval
  rooms(input: { brand: string; max?: number }): Promise<RoomsResponse> {
    return this.http.get('/api/agent/rooms', ROOMS, input);
  }

  /** A room's items, newest first; with `before`, only those before that seq. */
  messages(input: { brand: string; userKey: string; max?: number; before?: number }): Promise<MessagesResponse> {
    return this.http.get(`/api/agent/rooms/${enc(input.userKey)}/messages`, MESSAGES, { brand: input.brand, max: input.max, before: input.before });
  }

  conversations(input: { brand?: string; userKey?: string; max?: number } = {}): Promise<BrandConversations[]> {
    return this.http.get('/api/agent/conversations', CONVERSATIONS, input);
  }

  conversation(input: { brand: string; convId: string }): Promise<ConversationResponse> {
    return this.http.get('/api/agent/conversation', CONVERSATION, input);
  }

  /** One page of whole conversations (1 to 1000, default 100); `after` is `next` of the previous page. */
  exportConversations(input: { brand: string; after?: string; max?: number }): Promise<ConversationExportPage> {
    return this.http.get('/api/agent/conversations/export', EXPORT_PAGE, input);
  }

  signals(input: { brand: string; after?: string; max?: number }): Promise<SignalsResponse> {
    return this.http.get('/api/agent/signals', SIGNALS, input);
  }

  // settings
  profile(brand: string): Promise<ProfileResponse> {
    return this.http.get('/api/agent/settings/profile', PROFILE, { brand });
  }

  webhook(brand: string): Promise<WebhookSettings> {
    return this.http.get('/api/agent/settings/webhook', WEBHOOK, { brand });
  }

  setWebhook(input: { brandKey: string; url: string | null }): Promise<WebhookSettings> {
    return this.http.put('/api/agent/settings/webhook', WEBHOOK, input);
  }

  chat(brand: string): Promise<ChatStateResponse> {
    return this.http.get('/api/agent/settings/chat', CHAT, { brand });
  }

  setChatActive(input: { brandKey: string; active: boolean }): Promise<ChatToggleResponse> {
    return this.http.post(`/api/agent/settings/chat/${input.active ? 'activate' : 'deactivate'}`, CHAT_TOGGLE, { brandKey: input.brandKey });
  }

  schedule(brand: string): Promise<ScheduleResponse> {
    return this.http.get('/api/agent/settings/schedule', SCHEDULE, { brand });
  }

  setSchedule(input: { brandKey: string; schedule: Schedule | null }): Promise<ScheduleResponse> {
    return this.http.put('/api/agent/settings/schedule', SCHEDULE, input);
  }

  systemMessages(brand: string): Promise<SystemMessagesResponse> {
    return this.http.get('/api/agent/settings/system-messages', SYSTEM_MESSAGES, { brand });
  }

  plan(brand: string): Promise<PlanResponse> {
    return this.http.get('/api/agent/settings/plan', PLAN, { brand });
  }

  // device pairing (RFC 8628): no key needed
  requestDeviceCode(): Promise<DeviceCode> {
    return this.http.post('/api/auth/device/code', DEVICE_CODE, {});
  }

  /** One poll: the issued key, or the RFC's refusal (authorization_pending, slow_down, access_denied, expired_token, ...). */
  async pollDeviceToken(deviceCode: string): Promise<DeviceTokenPoll> {
    const { status, data } = await this.http.postRaw('/api/auth/device/token', DEVICE_TOKEN, { device_code: deviceCode, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' });
    if (status === 200) return { issued: true, token: data as DeviceToken };
    const refusal = data as Partial<DeviceTokenRefusal> | null;
    if (typeof refusal?.error === 'string') return { issued: false, refusal: refusal as DeviceTokenRefusal };
    throw new ApiError(status, `HTTP_${status}`, `the service answered HTTP ${status} to a device token poll`);
  }
}
