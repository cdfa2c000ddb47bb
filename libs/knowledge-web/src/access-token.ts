/**
 * The access token of a knowledge server: one random token per server, as Jupyter has, so that other users of
 * the machine, who reach 127.0.0.1 as well, cannot read the graph. Programs send it as a bearer token; the page
 * gets it as a cookie.
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

/** The tokens a request carries: `Authorization: Bearer <token>` and this server's cookie. */
export function presentedTokens(req: IncomingMessage, cookieName: string): string[] {
  const tokens: string[] = [];
  const bearer = /^Bearer +(\S+) *$/i.exec(req.headers.authorization ?? '');
  if (bearer?.[1] !== undefined) tokens.push(bearer[1]);
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim() === cookieName) tokens.push(pair.slice(eq + 1).trim());
  }
  return tokens;
}

/** How long a sign-in code may wait for its browser. */
const SIGN_IN_CODE_MS = 60_000;

/**
 * One-time codes for `/?code=`: what a program hands to the system's URL opener instead of the token, since the
 * opener's and a new browser's command lines are visible to every user of the machine. A code lets one page in,
 * once, within a minute; the token itself never leaves the process.
 */
export class SignInCodes {
  private readonly expiries = new Map<string, number>();

  mint(): string {
    this.dropExpired();
    const code = newAccessToken();
    this.expiries.set(code, Date.now() + SIGN_IN_CODE_MS);
    return code;
  }

  /** True once for a code minted here and not yet expired; the code is gone after. */
  redeem(code: string): boolean {
    const expiry = this.expiries.get(code);
    this.expiries.delete(code);
    return expiry !== undefined && Date.now() <= expiry;
  }

  private dropExpired(): void {
    const now = Date.now();
    for (const [code, expiry] of this.expiries) if (expiry < now) this.expiries.delete(code);
  }
}
