/**
 * The knowledge query API (/knowledge/*) and, with `view`, the graph page, on 127.0.0.1 only. Requests whose
 * Host is not 127.0.0.1:<port> or localhost:<port> are refused, so a web page on another origin cannot reach
 * the graph through DNS rebinding; no CORS headers are sent. Every request carries the server's access token,
 * since any user of the machine reaches 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { accessCookieName, isAccessToken, PageAccess, presentedCredentials } from './access-token';
import { KnowledgeApiError } from './api-error';
import type { KnowledgeBackend } from './backend';
import { type ApiRoute, queryApiRoutes, VIEW_CYPHER_ROUTE } from './query-api';
import { KNOWLEDGE_SERVICE } from './service-names';
import { type Asset, VIEW_ASSETS, VIEW_CSP } from './view-assets';

/** The request line and headers the query API reads: room for a query of about 200 KB in `q`. */
const MAX_QUERY_URL_BYTES = 256 * 1024;

/** Shorter than this is no secret: a caller passing an empty or made-up token is a mistake, refused at start. */
const MIN_TOKEN_LENGTH = 16;

const UNAUTHORIZED_MESSAGE =
  'This server needs its access token: open the page at the URL with ?token= that `brandwire knowledge view` or `brandwire gateway status` prints, or send `Authorization: Bearer <token>` (the gateway keeps its token as queryToken in its state file, whose path `brandwire gateway status --json` shows).';

export interface KnowledgeServerOptions {
  backend: KnowledgeBackend;
  /** 0 = any free port */
  port: number;
  /** what every program's request carries (newAccessToken()): `Authorization: Bearer <token>`; the page trades it at `/?token=` for a session cookie */
  token: string;
  /** also serve the page (/, /assets/*, /cypher?q=) */
  view?: boolean;
  /** what the server calls itself in /knowledge/status and the X-Brandwire-Service header (default "brandwire-knowledge") */
  service?: string;
  /** told of each unexpected failure (answered 500 INTERNAL) */
  onError?: (error: unknown, path: string) => void;
}

export interface KnowledgeServer {
  url: string;
  port: number;
  /** the page's URL with a one-time code (a minute, one use) instead of the token: for a URL opener's command line */
  signInUrl(): string;
  /** stops listening and ends open connections; the backend stays open (its owner closes it) */
  close(): Promise<void>;
}

/** How long close() lets requests in flight finish before it ends their connections. */
const CLOSE_GRACE_MS = 1000;

class Responder {
  constructor(
    private readonly res: ServerResponse,
    private readonly service: string,
  ) {}

  send(status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}): void {
    this.res.writeHead(status, {
      'Content-Type': type,
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'X-Brandwire-Service': this.service,
      ...headers,
    });
    this.res.end(body);
  }

  json(status: number, body: unknown, headers?: Record<string, string>): void {
    this.send(status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
  }

  error(error: KnowledgeApiError, headers?: Record<string, string>): void {
    this.json(error.status, { ok: false, code: error.code, message: error.message }, { ...(error.code === 'UNAUTHORIZED' && { 'WWW-Authenticate': 'Bearer' }), ...headers });
  }

  /** The page's way in: its token or code leaves the address bar for a session cookie of this server only. */
  admit(cookieName: string, session: string): void {
    this.send(303, 'text/plain; charset=utf-8', 'See /', { Location: '/', 'Set-Cookie': `${cookieName}=${session}; HttpOnly; SameSite=Strict; Path=/` });
  }
}

/**
 * A request a page of another site made (a link, an image, a form): browsers say so in Sec-Fetch-Site, or name the
 * page's origin. Local programs send neither; the view's own page is same-origin.
 */
function fromAnotherSite(req: IncomingMessage, allowedHosts: ReadonlySet<string>): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  try {
    const url = new URL(origin);
    return url.protocol !== 'http:' || !allowedHosts.has(url.host.toLowerCase());
  } catch {
    return true;
  }
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      reject(error.code === 'EADDRINUSE' ? new KnowledgeApiError('PORT_IN_USE', `Port ${port} on 127.0.0.1 is already in use by another program.`) : error);
    };
    server.once('error', failed);
    server.listen({ host: '127.0.0.1', port }, () => {
      server.off('error', failed);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

export async function startKnowledgeServer(options: KnowledgeServerOptions): Promise<KnowledgeServer> {
  const { backend, token, view = false, service = KNOWLEDGE_SERVICE, onError } = options;
  if (token.length < MIN_TOKEN_LENGTH) throw new Error(`The knowledge server needs an access token of at least ${MIN_TOKEN_LENGTH} characters (newAccessToken()).`);
  const api = queryApiRoutes(service);
  let allowedHosts = new Set<string>();
  let cookieName = '';
  const unauthorized = (): KnowledgeApiError => new KnowledgeApiError('UNAUTHORIZED', UNAUTHORIZED_MESSAGE);
  const pageAccess = new PageAccess();

  const handle = async (req: IncomingMessage, respond: Responder): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!allowedHosts.has((req.headers.host ?? '').toLowerCase())) {
      throw new KnowledgeApiError('FORBIDDEN', 'This server answers only requests addressed to 127.0.0.1 or localhost with its port.');
    }
    if (fromAnotherSite(req, allowedHosts)) {
      throw new KnowledgeApiError('FORBIDDEN', 'This server answers its own page and local programs only, not requests another site makes.');
    }
    const pageToken = view && url.pathname === '/' ? url.searchParams.get('token') : null;
    const signInCode = view && url.pathname === '/' ? url.searchParams.get('code') : null;
    if (pageToken !== null || signInCode !== null) {
      if (pageToken !== null ? !isAccessToken(pageToken, token) : !pageAccess.redeem(signInCode ?? '')) throw unauthorized();
      respond.admit(cookieName, pageAccess.openSession());
      return;
    }
    const { bearer, cookie } = presentedCredentials(req, cookieName);
    if (!((bearer !== undefined && isAccessToken(bearer, token)) || (cookie !== undefined && pageAccess.hasSession(cookie)))) throw unauthorized();
    const route: ApiRoute | undefined = api.get(url.pathname) ?? (view && url.pathname === '/cypher' ? VIEW_CYPHER_ROUTE : undefined);
    const asset: Asset | undefined = view ? VIEW_ASSETS.get(url.pathname) : undefined;
    if (route === undefined && asset === undefined) throw new KnowledgeApiError('NOT_FOUND', `There is nothing at ${url.pathname}.`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      respond.error(new KnowledgeApiError('METHOD_NOT_ALLOWED', `${String(req.method)} is not allowed here: the API only reads (GET).`), { Allow: 'GET, HEAD' });
      return;
    }
    if (route !== undefined) {
      respond.json(200, await route(url.searchParams, backend));
    } else if (asset !== undefined) {
      const security: Record<string, string> =
        url.pathname === '/' ? { 'Content-Security-Policy': VIEW_CSP, 'X-Frame-Options': 'DENY', 'Referrer-Policy': 'no-referrer' } : {};
      respond.send(200, asset.type, asset.body(), security);
    }
  };

  // a Cypher query travels in the URL (`/knowledge/cypher?q=`): Node's 16 KB default would refuse a long one
  const server = createServer({ maxHeaderSize: MAX_QUERY_URL_BYTES }, (req, res) => {
    const respond = new Responder(res, service);
    handle(req, respond).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const answer =
        error instanceof KnowledgeApiError
          ? error
          : new KnowledgeApiError('INTERNAL', `The knowledge server failed: ${error instanceof Error ? error.message : String(error)}`);
      if (answer.code === 'INTERNAL') onError?.(error, req.url ?? '/');
      respond.error(answer);
    });
  });
  const port = await listen(server, options.port);
  allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  cookieName = accessCookieName(port);

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    signInUrl: () => {
      if (!view) throw new Error('This knowledge server serves no page to sign in to.');
      return `http://127.0.0.1:${port}/?code=${pageAccess.mintCode()}`;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS).unref();
      }),
  };
}
