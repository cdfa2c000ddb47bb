import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { CommandSettings } from './command-settings';

/** Slack refuses to count a signature older than this (replays): so does the gateway. */
export const SLACK_MAX_AGE_S = 5 * 60;

/**
 * Whether a command request comes from the team chat: Slack's `X-Slack-Signature` (HMAC-SHA256 of
 * `v0:<timestamp>:<body>` with the signing secret, at most 5 minutes old), Teams' `Authorization: HMAC <base64>`
 * (HMAC-SHA256 of the body with the base64 security token), else `Authorization: Bearer <secret>`.
 */
export function isGenuine(settings: CommandSettings, headers: IncomingHttpHeaders, body: Buffer, nowMs = Date.now()): boolean {
  switch (settings.type) {
    case 'slack': {
      const timestamp = header(headers, 'x-slack-request-timestamp');
      const signature = header(headers, 'x-slack-signature');
      if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowMs / 1000 - Number(timestamp)) > SLACK_MAX_AGE_S) return false;
      const expected = `v0=${createHmac('sha256', settings.secret).update(`v0:${timestamp}:`).update(body).digest('hex')}`;
      return sameText(signature, expected);
    }
    case 'teams': {
      const expected = `HMAC ${createHmac('sha256', Buffer.from(settings.secret, 'base64')).update(body).digest('base64')}`;
      return sameText(header(headers, 'authorization'), expected);
    }
    case 'webhook':
    case 'discord': {
      // the scheme's name is case-insensitive (RFC 9110); the token is not
      const given = /^bearer /i.exec(header(headers, 'authorization')) ? header(headers, 'authorization').slice(7) : '';
      return sameText(given, settings.secret);
    }
  }
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
