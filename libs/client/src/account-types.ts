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
