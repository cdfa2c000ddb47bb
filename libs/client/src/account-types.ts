import type { Scope } from '@brandwire/domain';

/** The REST JSON of the service, field for field (GET /api/docs-json): the key, its brands and channels, the envelope, and device pairing (RFC 8628). */

export interface Envelope {
  ok: boolean;
  code: string;
  message: string | null;
}

export interface Plan {
  consultations: number;
  used: number;
  remaining: number;
}

export interface Channel {
  key: string;
  name: string;
  type: string;
  chatbotBuilder: boolean;
  plan: Plan;
}

export interface Brand {
  id: string;
  name: string;
  channels: Channel[];
}

export interface MeResponse {
  ok: true;
  name: string;
  scope: Scope;
  brands: Brand[];
  /** host of customer attachment URLs (`[type] https://<host>/...` lines) */
  attachmentHost: string;
}

export interface DeviceCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export interface DeviceToken {
  access_token: string;
  token_type: 'Bearer';
  scope: Scope;
  brands: string[];
  name: string;
}

/** RFC 8628 section 3.5 answers while no key is issued (and RFC 6749 errors). */

export interface DeviceTokenRefusal {
  error: 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'invalid_grant' | 'invalid_request' | 'unsupported_grant_type';
  error_description?: string;
  interval?: number;
}

export type DeviceTokenPoll = { issued: true; token: DeviceToken } | { issued: false; refusal: DeviceTokenRefusal };

/** One key of `GET /api/agent/keys`: never its token (the service keeps only its hash). */
export interface ApiKeyInfo {
  id: string;
  name: string;
  scope: Scope;
  /** the brand ids the key was given */
  brands: string[];
  /** when the key was made, ISO 8601 with the service's offset */
  createdAt: string;
  /** the key the request was made with */
  current: boolean;
}

/** The keys a key manages, oldest first: an Admin key's own and those whose brands are all among its own; any other key only itself. */
export interface KeysResponse {
  ok: true;
  keys: ApiKeyInfo[];
}

/** `POST /api/agent/keys`: what a new key is given (an Admin key gives some of its own brands). */
export interface NewKeyInput {
  name: string;
  scope: Scope;
  brands: string[];
}

/** The new key, its token shown only here. */
export interface CreatedKeyResponse extends ApiKeyInfo {
  ok: true;
  token: string;
}

/** `DELETE /api/agent/keys/{id}`: requests with the key are refused (401) from now on. */
export interface RevokedKeyResponse {
  ok: true;
  id: string;
  name: string;
  revoked: true;
  /** the key revoked itself */
  self: boolean;
}
