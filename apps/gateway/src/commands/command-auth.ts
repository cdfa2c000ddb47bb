import { type KeyObject, createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { CommandSettings } from './command-settings';

/** Slack refuses to count a signature older than this (replays): so does the gateway, for Slack's and Discord's. */
export const SIGNED_MAX_AGE_S = 5 * 60;

/** The header that holds a signed request's signature, the key of the replay cache; undefined for a team chat that signs no time. */
export function signatureHeaderOf(type: CommandSettings['type']): string | undefined {
  return type === 'slack' ? 'x-slack-signature' : type === 'discord' ? 'x-signature-ed25519' : undefined;
}

/**
 * Whether a command request comes from the team chat: Slack's `X-Slack-Signature` (HMAC-SHA256 of
 * `v0:<timestamp>:<body>` with the signing secret), Discord's `X-Signature-Ed25519` (Ed25519 of
 * `<X-Signature-Timestamp><body>`, checked with the application's public key), each at most 5 minutes old, Teams'
 * `Authorization: HMAC <base64>` (HMAC-SHA256 of the body with the base64 security token), else
 * `Authorization: Bearer <secret>`.
 */
export function isGenuine(settings: CommandSettings, headers: IncomingHttpHeaders, body: Buffer, nowMs = Date.now()): boolean {
  switch (settings.type) {
    case 'slack': {
      const timestamp = header(headers, 'x-slack-request-timestamp');
      const signature = header(headers, 'x-slack-signature');
      if (!isRecent(timestamp, nowMs)) return false;
      const expected = `v0=${createHmac('sha256', settings.secret).update(`v0:${timestamp}:`).update(body).digest('hex')}`;
      return sameText(signature, expected);
    }
    case 'teams': {
      const expected = `HMAC ${createHmac('sha256', Buffer.from(settings.secret, 'base64')).update(body).digest('base64')}`;
      return sameText(header(headers, 'authorization'), expected);
    }
    case 'discord': {
      const timestamp = header(headers, 'x-signature-timestamp');
      const signature = header(headers, 'x-signature-ed25519');
      // hex of 64 bytes: Buffer.from would drop what is not hex, and a shorter signature is none
      if (!isRecent(timestamp, nowMs) || !/^[0-9a-f]{128}$/i.test(signature)) return false;
      return verify(null, Buffer.concat([Buffer.from(timestamp), body]), discordKey(settings.secret), Buffer.from(signature, 'hex'));
    }
    case 'webhook': {
      // the scheme's name is case-insensitive (RFC 9110); the token is not
      const given = /^bearer /i.exec(header(headers, 'authorization')) ? header(headers, 'authorization').slice(7) : '';
      return sameText(given, settings.secret);
    }
  }
}

/** A time in seconds since the epoch, at most 5 minutes from now either way. */
function isRecent(timestamp: string, nowMs: number): boolean {
  return /^\d{1,12}$/.test(timestamp) && Math.abs(nowMs / 1000 - Number(timestamp)) <= SIGNED_MAX_AGE_S;
}

let lastKey: { hex: string; key: KeyObject } | undefined;

/** The Discord application's public key (64 hex characters, checked at start) as a key to verify with, made once. */
function discordKey(hex: string): KeyObject {
  if (lastKey?.hex !== hex) lastKey = { hex, key: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(hex, 'hex').toString('base64url') }, format: 'jwk' }) };
  return lastKey.key;
}

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
}

function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
