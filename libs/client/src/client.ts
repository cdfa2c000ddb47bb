import { ApiError } from './errors';
import { type ClientOptions, Http } from './http';
import type { DeviceCode, DeviceToken, DeviceTokenPoll, DeviceTokenRefusal, MeResponse } from './account-types';
import type { DeleteResponse, SendAttachmentsResponse, SendResponse, SessionActionResponse, UploadFileResponse, UploadImageResponse } from './outbound-types';
import type { BrandConversations, ConversationExportPage, ConversationResponse, MessagesResponse, RoomsResponse, SignalsResponse } from './retrieval-types';
import type { ChatStateResponse, ChatToggleResponse, PlanResponse, ProfileResponse, Schedule, ScheduleResponse, SystemMessagesResponse, WebhookSettings } from './settings-types';

export interface Target {
  brandKey: string;
  userKey: string;
}

export type ImageStyle = 'rich' | 'plain';
export type FileType = 'file' | 'audio' | 'video';

const enc = encodeURIComponent;

/**
 * A typed client of the Brandwire REST API: one method per endpoint, returning the REST JSON unchanged.
 * Error envelopes throw ApiError; no answer throws NetworkError. Messenger rejections of a send are
 * HTTP 200 with `ok: false` and are returned, not thrown, as the REST API returns them.
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
    return this.http.get('/api/agent/me');
  }

  // outbound
  /** `idempotencyKey`: a repeat of this send (after a crash, say) gets the first answer instead of a second bubble. */
  send(input: Target & { text: string }, options: { idempotencyKey?: string } = {}): Promise<SendResponse> {
    return this.http.post('/api/agent/send', input, options.idempotencyKey === undefined ? {} : { 'idempotency-key': options.idempotencyKey });
  }

  sendRich(input: Target & { rich: string }): Promise<SendResponse> {
    return this.http.post('/api/agent/send/rich', input);
  }

  sendAttachments(input: Target & { files: readonly string[]; text?: string; imageStyle?: ImageStyle }): Promise<SendAttachmentsResponse> {
    const fields = { brandKey: input.brandKey, userKey: input.userKey, text: input.text, imageStyle: input.imageStyle };
    return this.http.multipart('/api/agent/send/attachments', fields, input.files.map((path) => ({ field: 'files', path })));
  }

  sendImage(input: Target & { imageUrl: string }): Promise<SendResponse> {
    return this.http.post('/api/agent/send/image', input);
  }

  delete(input: Target & { serial?: string; text?: string; withinSeconds?: number }): Promise<DeleteResponse> {
    return this.http.post('/api/agent/delete', input);
  }

  end(input: Target & { greeting?: string }): Promise<SessionActionResponse> {
    return this.http.post('/api/agent/end', input);
  }

  endWithBot(input: Target & { botEvent?: string }): Promise<SessionActionResponse> {
    return this.http.post('/api/agent/end-with-bot', input);
  }

  requestPersonalInfo(input: Target): Promise<SendResponse> {
    return this.http.post('/api/agent/personal-info/request', input);
  }

  block(input: Target): Promise<SessionActionResponse> {
    return this.http.post('/api/agent/block', input);
  }

  unblock(input: Target): Promise<SessionActionResponse> {
    return this.http.post('/api/agent/unblock', input);
  }

  uploadImage(input: { brand: string; file: string; imageType?: ImageStyle }): Promise<UploadImageResponse> {
    return this.http.multipart('/api/agent/upload/image', { brand: input.brand, imageType: input.imageType }, [{ field: 'file', path: input.file }]);
  }

  uploadFile(input: { brand: string; file: string; fileType: FileType }): Promise<UploadFileResponse> {
    return this.http.multipart('/api/agent/upload/file', { brand: input.brand, fileType: input.fileType }, [{ field: 'file', path: input.file }]);
  }

  // retrieval
  rooms(input: { brand: string; max?: number }): Promise<RoomsResponse> {
    return this.http.get('/api/agent/rooms', input);
  }

  messages(input: { brand: string; userKey: string; max?: number }): Promise<MessagesResponse> {
    return this.http.get(`/api/agent/rooms/${enc(input.userKey)}/messages`, { brand: input.brand, max: input.max });
  }

  conversations(input: { brand?: string; userKey?: string; max?: number } = {}): Promise<BrandConversations[]> {
    return this.http.get('/api/agent/conversations', input);
  }

  conversation(input: { brand: string; convId: string }): Promise<ConversationResponse> {
    return this.http.get('/api/agent/conversation', input);
  }

  /** One page of whole conversations (1 to 1000, default 100); `after` is `next` of the previous page. */
  exportConversations(input: { brand: string; after?: string; max?: number }): Promise<ConversationExportPage> {
    return this.http.get('/api/agent/conversations/export', input);
  }

  signals(input: { brand: string; after?: string; max?: number }): Promise<SignalsResponse> {
    return this.http.get('/api/agent/signals', input);
  }

  // settings
  profile(brand: string): Promise<ProfileResponse> {
    return this.http.get('/api/agent/settings/profile', { brand });
  }

  webhook(brand: string): Promise<WebhookSettings> {
    return this.http.get('/api/agent/settings/webhook', { brand });
  }

  setWebhook(input: { brandKey: string; url: string | null }): Promise<WebhookSettings> {
    return this.http.put('/api/agent/settings/webhook', input);
  }

  chat(brand: string): Promise<ChatStateResponse> {
    return this.http.get('/api/agent/settings/chat', { brand });
  }

  setChatActive(input: { brandKey: string; active: boolean }): Promise<ChatToggleResponse> {
    return this.http.post(`/api/agent/settings/chat/${input.active ? 'activate' : 'deactivate'}`, { brandKey: input.brandKey });
  }

  schedule(brand: string): Promise<ScheduleResponse> {
    return this.http.get('/api/agent/settings/schedule', { brand });
  }

  setSchedule(input: { brandKey: string; schedule: Schedule | null }): Promise<ScheduleResponse> {
    return this.http.put('/api/agent/settings/schedule', input);
  }

  systemMessages(brand: string): Promise<SystemMessagesResponse> {
    return this.http.get('/api/agent/settings/system-messages', { brand });
  }

  plan(brand: string): Promise<PlanResponse> {
    return this.http.get('/api/agent/settings/plan', { brand });
  }

  // device pairing (RFC 8628): no key needed
  requestDeviceCode(): Promise<DeviceCode> {
    return this.http.post('/api/auth/device/code', {});
  }

  /** One poll: the issued key, or the RFC's refusal (authorization_pending, slow_down, access_denied, expired_token, ...). */
  async pollDeviceToken(deviceCode: string): Promise<DeviceTokenPoll> {
    const { status, data } = await this.http.postRaw('/api/auth/device/token', { device_code: deviceCode, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' });
    if (status === 200) return { issued: true, token: data as DeviceToken };
    const refusal = data as Partial<DeviceTokenRefusal> | null;
    if (typeof refusal?.error === 'string') return { issued: false, refusal: refusal as DeviceTokenRefusal };
    throw new ApiError(status, `HTTP_${status}`, `the service answered HTTP ${status} to a device token poll`);
  }
}
