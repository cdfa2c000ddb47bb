import { MAX_MESSAGES_DEFAULT, MAX_MESSAGES_LIMIT, scopeAllows } from '@brandwire/domain';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { ApiKeysService } from '../common/auth/api-keys.service';
import { bearerToken } from '../common/auth/bearer-token';
import type { BrandAccessService } from '../common/auth/brand-access.service';
import type { KeyRateLimit } from '../common/auth/key-rate-limit';
import type { RoomPageCache } from './room-page-cache';

/** `/api/agent/rooms/{userKey}/messages?…` with a user key and a query that need no decoding. */
const MESSAGES_URL = /^\/api\/agent\/rooms\/([\w.:@~-]+)\/messages\?([\w.:@~=&-]+)$/;
const PLAIN_MAX = /^[1-9]\d{0,2}$/;

interface PageRequest {
  userKey: string;
  brand: string;
  max: number;
}

/** The page a URL asks for, when it is in the one plain form a cached page is served for. */
function pageRequestOf(url: string): PageRequest | undefined {
  const match = MESSAGES_URL.exec(url);
  if (!match) return undefined;
  let brand: string | undefined;
  let max: number | undefined;
  for (const pair of (match[2] as string).split('&')) {
    const [name, value, extra] = pair.split('=');
    if (extra !== undefined || !value) return undefined;
    if (name === 'brand' && brand === undefined) brand = value;
    else if (name === 'max' && max === undefined && PLAIN_MAX.test(value)) max = Number(value);
    else return undefined;
  }
  if (brand === undefined || (max !== undefined && max > MAX_MESSAGES_LIMIT)) return undefined;
  return { userKey: match[1] as string, brand, max: max ?? MAX_MESSAGES_DEFAULT };
}

/** A GET with a body goes to the route, whose body parser answers a malformed or oversized one. */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Serves a messages page the cache holds before routing, with the same checks of key, scope and brand as the
 * route, counted against the key's rate limit as the route's are. Anything else (another URL, an encoded or unusual query, any failed check, a page not held or stale)
 * goes on to the route, which validates, answers errors, and fills the cache.
 */
export function cachedRoomPages(cache: RoomPageCache, keys: ApiKeysService, access: BrandAccessService, rateLimit: KeyRateLimit): RequestHandler {
  const cachedPage = async (req: Request, res: Response): Promise<Buffer | undefined> => {
    const page = pageRequestOf(req.url);
    const header = req.headers.authorization;
    const token = page && header && bearerToken(header);
    if (!page || !token) return undefined;
    const principal = await keys.authenticate(token);
    if (!principal || !scopeAllows(principal.scope, 'BrandRead')) return undefined;
    const channel = await access.channelFor(principal, page.brand, 'brand').catch(() => undefined);
    const body = channel && cache.lookup(channel.key, page.userKey, page.max);
    // a key past its limit goes on to the route, whose guard answers the refusal
    return body && (await rateLimit.count(principal, res).then(() => body, () => undefined));
  };

  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' || !cache.enabled || !req.url.startsWith('/api/agent/rooms/') || hasBody(req)) return next();
    cachedPage(req, res)
      .then((body) => {
        if (!body) return next();
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
        res.end(body);
      })
      .catch((error: unknown) => (res.headersSent ? res.destroy(error instanceof Error ? error : undefined) : next()));
  };
}
