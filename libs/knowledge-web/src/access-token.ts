/**
 * The access token of a knowledge server: one random token per server, as Jupyter has, so that other users of
 * the machine, who reach 127.0.0.1 as well, cannot read the graph. Programs send it as a bearer token; the page
 * trades it (or a one-time code) for a session cookie.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** 32 random bytes, URL-safe: fit for `?token=`, a header and a cookie as it is. */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Browsers share a host's cookies across its ports: each server's cookie has its port in its name. */
export function accessCookieName(port: number): string {
  return `brandwire-knowledge-${port}`;
}

/** Compared in constant time, so the answer's timing tells nothing of how much of a guess was right. */
export function isAccessToken(given: string, token: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(token, 'utf8');
  // timingSafeEqual throws on buffers of different lengths; the length of the token is no secret
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What a request carries: `Authorization: Bearer <token>` (programs) and this server's cookie (the page's session). */
export function presentedCredentials(req: IncomingMessage, cookieName: string): { bearer?: string; cookie?: string } {
  const bearer = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
  let cookie: string | undefined;
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === cookieName) cookie = pair.slice(eq + 1).trim();
  }
  return { ...(bearer !== undefined && { bearer }), ...(cookie !== undefined && { cookie }) };
}

/** How long a sign-in code may wait for its browser. */
const SIGN_IN_CODE_MS = 60_000;

/** Page sessions kept; the one unused longest is dropped beyond (its browser signs in again). */
const MAX_SESSIONS = 1_000;

/**
 * The page's ways in. `/?token=` and one-time codes for `/?code=` (what a program hands to the system's URL opener
 * instead of the token, since the opener's and a new browser's command lines are visible to every user of the
 * machine: a code lets one browser in, once, within a minute) are traded for a session of that browser, kept in its
 * cookie: the token itself never goes into a cookie, and a session reaches only this server until it stops.
 */
export class PageAccess {
  private readonly codes = new Map<string, number>();
  private readonly sessions = new Set<string>();

  mintCode(): string {
    const now = Date.now();
    for (const [code, expiry] of this.codes) if (expiry < now) this.codes.delete(code);
    const code = newAccessToken();
    this.codes.set(code, now + SIGN_IN_CODE_MS);
    return code;
  }

  /** True once for a code minted here and not yet expired; the code is gone after. */
  redeem(code: string): boolean {
    const expiry = this.codes.get(code);
    this.codes.delete(code);
    return expiry !== undefined && Date.now() <= expiry;
  }

  openSession(): string {
    const session = newAccessToken();
    this.sessions.add(session);
    if (this.sessions.size > MAX_SESSIONS) this.sessions.delete(this.sessions.values().next().value as string);
    return session;
  }

  /** Whether the session is one of this server's; a session in use moves to the newest, so it is dropped last. */
  hasSession(session: string): boolean {
    if (!this.sessions.delete(session)) return false;
    this.sessions.add(session);
    return true;
  }
}
