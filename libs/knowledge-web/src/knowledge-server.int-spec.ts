import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { KnowledgeGraph } from '@brandwire/knowledge';
import { graphBackend, type KnowledgeServer, missingGraphBackend, newAccessToken, startKnowledgeServer } from './index';
import { type HttpAnswer, httpCall, statusWithoutHost } from './test-support/http-call';
import { buildSampleGraph, tempGraph, type TempGraph } from './testing';

/** Jest's own timeout when the suite runs from the root config is 5 s; building a graph on a busy machine may need more. */
const GRAPH_SETUP_MS = 30_000;

/** The one token every server of this file takes. */
const TOKEN = newAccessToken();

/** A request a program with the token makes: its bearer token first, the test's headers over it. */
function authed(port: number, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<HttpAnswer> {
  return httpCall(port, path, { ...options, headers: { authorization: `Bearer ${TOKEN}`, ...options.headers } });
}

const NODES = { Channel: 1, Customer: 2, Conversation: 3, Inquiry: 4, Response: 4, Attachment: 1 };

describe('the knowledge query API over a real graph opened read-only', () => {
  let temp: TempGraph;
  let graph: KnowledgeGraph;
  let api: KnowledgeServer;
  let view: KnowledgeServer;

  beforeAll(async () => {
    temp = tempGraph();
    await buildSampleGraph(temp.path);
    graph = await KnowledgeGraph.open(temp.path, { readOnly: true, bufferPoolMb: 64, holder: 'the query API test' });
    const backend = graphBackend(graph);
    api = await startKnowledgeServer({ backend, port: 0, token: TOKEN });
    view = await startKnowledgeServer({ backend, port: 0, view: true, token: TOKEN });
  }, GRAPH_SETUP_MS);
  afterAll(async () => {
    await api?.close();
    await view?.close();
    await graph?.close();
    temp?.remove();
  });

  it('listens on 127.0.0.1 at the port it reports', () => {
    expect(api.url).toBe(`http://127.0.0.1:${api.port}`);
    expect(api.port).toBeGreaterThan(0);
  });

  describe('its access token', () => {
    const unauthorized = {
      ok: false,
      code: 'UNAUTHORIZED',
      message:
        'This server needs its access token: open the page at the URL with ?token= that `brandwire knowledge view` or `brandwire gateway status` prints, or send `Authorization: Bearer <token>` (the gateway keeps its token as queryToken in its state file, whose path `brandwire gateway status --json` shows).',
    };
    const cookieName = (port: number): string => `brandwire-knowledge-${port}`;

    it('refuses a request without the token, or with a wrong one, with 401 UNAUTHORIZED saying how to get in', async () => {
      for (const path of ['/knowledge/status', '/knowledge/cypher?q=RETURN%201', '/knowledge/nope']) {
        const res = await httpCall(api.port, path);
        expect([res.status, res.json()]).toEqual([401, unauthorized]);
        expect(res.headers['www-authenticate']).toBe('Bearer');
        expect(res.headers['x-brandwire-service']).toBe('brandwire-knowledge');
      }
      for (const authorization of [`Bearer ${newAccessToken()}`, `Bearer ${TOKEN.slice(1)}`, `Bearer ${TOKEN}x`, 'Bearer é', `Basic ${TOKEN}`, TOKEN, 'Bearer']) {
        const res = await httpCall(api.port, '/knowledge/status', { headers: { authorization } });
        expect({ authorization, status: res.status }).toEqual({ authorization, status: 401 });
        expect(res.json()).toEqual(unauthorized);
      }
      for (const path of ['/', '/assets/view.js', '/cypher?q=RETURN%201']) {
        expect((await httpCall(view.port, path)).status).toBe(401);
      }
      // a cookie of another port's server is not this one's
      expect((await httpCall(view.port, '/', { headers: { cookie: `${cookieName(view.port + 1)}=${TOKEN}` } })).status).toBe(401);
    });

    it('answers the right bearer token', async () => {
      const res = await httpCall(api.port, '/knowledge/status', { headers: { authorization: `bearer ${TOKEN}` } });
      expect([res.status, res.json()]).toEqual([200, expect.objectContaining({ ok: true, installed: true })]);
    });

    it('checks the Host and the other site before the token (403 before 401)', async () => {
      expect((await httpCall(api.port, '/knowledge/status', { headers: { host: 'evil.example' } })).status).toBe(403);
      expect((await httpCall(api.port, '/knowledge/status', { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
      expect(await statusWithoutHost(api.port, '/knowledge/status')).toBe('HTTP/1.1 403 Forbidden');
    });

    /** The session a Set-Cookie of the page's sign-in holds: its own, never the token. */
    function sessionOf(answer: HttpAnswer): string {
      const [setCookie] = answer.headers['set-cookie'] ?? [];
      const match = new RegExp(`^${cookieName(view.port)}=([A-Za-z0-9_-]{43}); HttpOnly; SameSite=Strict; Path=/$`).exec(setCookie ?? '');
      expect(match).not.toBeNull();
      expect(match?.[1]).not.toBe(TOKEN);
      return match?.[1] ?? '';
    }

    it('lets the page in at /?token=: 303 to / with an HttpOnly, SameSite=Strict session cookie, which the page and the API then take', async () => {
      const login = await httpCall(view.port, `/?token=${TOKEN}`);
      expect(login.status).toBe(303);
      expect(login.headers['location']).toBe('/');
      const cookie = { cookie: `other=1; ${cookieName(view.port)}=${sessionOf(login)}` };
      const page = await httpCall(view.port, '/', { headers: cookie });
      expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
      expect((await httpCall(view.port, '/assets/view.js', { headers: cookie })).status).toBe(200);
      expect((await httpCall(view.port, '/knowledge/status', { headers: cookie })).json()).toMatchObject({ ok: true, installed: true });
      expect((await httpCall(view.port, '/cypher?q=RETURN%201', { headers: { ...cookie, 'sec-fetch-site': 'same-origin' } })).status).toBe(200);
      // the token is for programs, as a bearer token; a cookie holding it, or a made-up session, is no way in
      for (const value of [TOKEN, newAccessToken()]) expect((await httpCall(view.port, '/', { headers: { cookie: `${cookieName(view.port)}=${value}` } })).status).toBe(401);
    });

    it('refuses a wrong ?token= with 401 and sets no cookie; the API server has no page to let in', async () => {
      for (const token of [newAccessToken(), TOKEN.slice(0, 10), '', `${TOKEN}${TOKEN}`]) {
        const res = await httpCall(view.port, `/?token=${encodeURIComponent(token)}`);
        expect({ token, status: res.status }).toEqual({ token, status: 401 });
        expect(res.json()).toEqual(unauthorized);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      expect((await httpCall(api.port, `/?token=${TOKEN}`)).status).toBe(401);
      expect((await authed(api.port, `/?token=${TOKEN}`)).status).toBe(404);
    });

    it('lets the page in once with a sign-in URL, whose code is no token and is worth nothing once used', async () => {
      const signIn = new URL(view.signInUrl());
      expect(`${signIn.origin}${signIn.pathname}`).toBe(`${view.url}/`);
      const code = signIn.searchParams.get('code') ?? '';
      expect(code).not.toContain(TOKEN);
      expect(signIn.searchParams.has('token')).toBe(false);
      const first = await httpCall(view.port, `/?code=${code}`);
      expect(first.status).toBe(303);
      expect((await httpCall(view.port, '/', { headers: { cookie: `${cookieName(view.port)}=${sessionOf(first)}` } })).status).toBe(200);
      const again = await httpCall(view.port, `/?code=${code}`);
      expect(again.status).toBe(401);
      expect(again.headers['set-cookie']).toBeUndefined();
      for (const wrong of [newAccessToken(), TOKEN, '']) expect((await httpCall(view.port, `/?code=${encodeURIComponent(wrong)}`)).status).toBe(401);
      expect(() => api.signInUrl()).toThrow('serves no page');
    });

    it('lets a sign-in code in only within its minute', async () => {
      const code = new URL(view.signInUrl()).searchParams.get('code') ?? '';
      const now = Date.now();
      const clock = jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
      try {
        expect((await httpCall(view.port, `/?code=${code}`)).status).toBe(401);
      } finally {
        clock.mockRestore();
      }
    });

    it('refuses to start without a token', async () => {
      await expect(startKnowledgeServer({ backend: missingGraphBackend('/nowhere/graph.kuzu'), port: 0, token: '' })).rejects.toThrow('needs an access token');
    });
  });

  it('GET /knowledge/status answers the graph status and names the server', async () => {
    const res = await authed(api.port, '/knowledge/status');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['x-brandwire-service']).toBe('brandwire-knowledge');
    expect(res.json()).toEqual({
      ok: true,
      service: 'brandwire-knowledge',
      path: temp.path,
      readOnly: true,
      installed: true,
      kuzuVersion: '0.11.3',
      nodes: NODES,
      relations: expect.objectContaining({ ASKED: 4, HAS_CONVERSATION: 3, ENDED: 1, HAS_ATTACHMENT: 1 }) as unknown,
      ftsIndexes: ['inquiry_text', 'response_text'],
    });
  });

  it('GET /knowledge/cypher?q= runs one read-only statement, numbers and nodes keeping their JSON types', async () => {
    const q = 'MATCH (c:Customer)-[:ASKED]->(i:Inquiry) RETURN c.userKey AS customer, i.turn AS turn, i ORDER BY i.id LIMIT 2';
    const res = await authed(api.port, `/knowledge/cypher?q=${encodeURIComponent(q)}`);
    expect(res.status).toBe(200);
    const body = res.json<{ ok: boolean; columns: string[]; types: string[]; rows: unknown[][] }>();
    expect(body).toMatchObject({ ok: true, columns: ['customer', 'turn', 'i'], types: ['STRING', 'INT64', 'NODE'] });
    expect(body.rows).toEqual([
      ['user-1', 1, expect.objectContaining({ _label: 'Inquiry', id: 'conv-1#1', text: 'My parcel did not arrive yet', ts: '2026-11-20T01:00:00.000Z' })],
      ['user-1', 2, expect.objectContaining({ _label: 'Inquiry', id: 'conv-1#2' })],
    ]);
  });

  it('runs a query of 30 KB (a long URL) and refuses CHECKPOINT and settings, which would break the graph for every caller', async () => {
    const long = `RETURN 1 AS a /* ${'x'.repeat(30_000)} */`;
    const res = await authed(api.port, `/knowledge/cypher?q=${encodeURIComponent(long)}`);
    expect([res.status, res.json()]).toEqual([200, { ok: true, columns: ['a'], types: ['INT64'], rows: [[1]] }]);
    for (const q of ['CHECKPOINT', 'CALL timeout=1', 'BEGIN TRANSACTION']) {
      const refused = await authed(api.port, `/knowledge/cypher?q=${encodeURIComponent(q)}`);
      expect([refused.status, refused.json()]).toEqual([400, { ok: false, code: 'READ_ONLY', message: expect.stringContaining('is not a query') as unknown }]);
    }
    const after = await authed(api.port, `/knowledge/cypher?q=${encodeURIComponent('MATCH (c:Channel) RETURN count(c) AS n')}`);
    expect(after.json()).toMatchObject({ ok: true, rows: [[1]] });
  });

  it('refuses a write through /knowledge/cypher with Kuzu own message (400 BAD_QUERY), and the graph is unchanged', async () => {
    const res = await authed(api.port, `/knowledge/cypher?q=${encodeURIComponent("CREATE (:Channel {key: 'intruder'})")}`);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ ok: false, code: 'BAD_QUERY', message: expect.stringMatching(/read-only/i) as unknown });
    const count = await authed(api.port, `/knowledge/cypher?q=${encodeURIComponent('MATCH (c:Channel) RETURN count(c) AS n')}`);
    expect(count.json()).toMatchObject({ rows: [[1]] });
  });

  it('answers 400 BAD_QUERY to a result larger than 64 MB as JSON, on the API and the page, and answers the next query', async () => {
    const huge = encodeURIComponent("UNWIND range(1, 14000) AS x RETURN x, repeat('a', 5000) AS s");
    for (const [port, path] of [[api.port, '/knowledge/cypher'], [view.port, '/cypher']] as const) {
      const res = await authed(port, `${path}?q=${huge}`);
      expect([res.status, res.json()]).toEqual([
        400,
        { ok: false, code: 'BAD_QUERY', message: 'The result is larger than the 64 MB a query may answer (as JSON): add LIMIT or return fewer or shorter columns.' },
      ]);
    }
    expect((await authed(api.port, `/knowledge/cypher?q=${encodeURIComponent('RETURN 1')}`)).json()).toMatchObject({ rows: [[1]] });
  });

  it('answers 400 BAD_QUERY with the parser message for a malformed statement', async () => {
    const res = await authed(api.port, `/knowledge/cypher?q=${encodeURIComponent('MATCH (n RETURN n')}`);
    expect(res.status).toBe(400);
    expect(res.json()).toEqual({ ok: false, code: 'BAD_QUERY', message: expect.stringContaining('Parser exception') as unknown });
  });

  it('answers 400 BAD_REQUEST without q and 400 MISSING_PARAMETER for a $parameter it cannot bind', async () => {
    for (const path of ['/knowledge/cypher', '/knowledge/cypher?q=', '/knowledge/cypher?q=%20%20']) {
      const res = await authed(api.port, path);
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({ ok: false, code: 'BAD_REQUEST', message: 'The query parameter q (one read-only Cypher statement) is missing.' });
    }
    const res = await authed(api.port, `/knowledge/cypher?q=${encodeURIComponent('MATCH (c:Channel {key: $key}) RETURN c')}`);
    expect(res.status).toBe(400);
    expect(res.json()).toMatchObject({ ok: false, code: 'MISSING_PARAMETER' });
  });

  it('GET /knowledge/search?q=&limit= finds inquiries and responses, best first', async () => {
    const res = await authed(api.port, '/knowledge/search?q=refund');
    expect(res.status).toBe(200);
    const { hits } = res.json<{ hits: { kind: string; id: string; score: number }[] }>();
    expect(hits.map((h) => [h.kind, h.id]).sort()).toEqual([
      ['inquiry', 'conv-2#1'],
      ['response', 'conv-2#2'],
    ]);
    expect(hits[0]?.score).toBeGreaterThanOrEqual(hits[1]?.score ?? 0);
    expect(hits[0]).toMatchObject({ convId: 'conv-2', ts: expect.stringMatching(/^2026-11-20T01:1\d:00\.000Z$/) as unknown });

    const one = await authed(api.port, '/knowledge/search?q=refund&limit=1');
    expect(one.json<{ hits: unknown[] }>().hits).toHaveLength(1);
    const none = await authed(api.port, '/knowledge/search?q=zeppelin');
    expect(none.json()).toEqual({ ok: true, hits: [] });
  });

  it('answers 400 BAD_REQUEST for a search without q or with a bad limit', async () => {
    const missing = await authed(api.port, '/knowledge/search?limit=3');
    expect(missing.status).toBe(400);
    expect(missing.json()).toEqual({ ok: false, code: 'BAD_REQUEST', message: 'The query parameter q (the words to search for) is missing.' });
    for (const limit of ['0', '-1', '2.5', 'ten', '201']) {
      const res = await authed(api.port, `/knowledge/search?q=refund&limit=${limit}`);
      expect(res.status).toBe(400);
      expect(res.json()).toEqual({ ok: false, code: 'BAD_REQUEST', message: `limit must be a whole number from 1 to 200, got "${limit}".` });
    }
  });

  it('GET /knowledge/graph.json?limit= gives the recent conversations as nodes and edges', async () => {
    const res = await authed(api.port, '/knowledge/graph.json');
    expect(res.status).toBe(200);
    const body = res.json<{ ok: boolean; nodes: { id: string; label: string; caption: string }[]; edges: { source: string; target: string; label: string }[] }>();
    expect(body.ok).toBe(true);
    expect(body.nodes).toHaveLength(15);
    expect(body.nodes).toContainEqual(expect.objectContaining({ id: 'Inquiry:conv-2#1', label: 'Inquiry', caption: 'I want a refund for my card payment' }));
    expect(body.edges).toContainEqual(expect.objectContaining({ source: 'Customer:brand-a/user-2', target: 'Inquiry:conv-2#1', label: 'ASKED' }));
    const ids = new Set(body.nodes.map((n) => n.id));
    expect(body.edges.every((e) => ids.has(e.source) && ids.has(e.target))).toBe(true);
    // each conversation's turns in their order (the view sorts them itself: Kuzu 0.11.3 can misorder a two-key ORDER BY)
    const turnsOf = new Map<string, number[]>();
    for (const e of body.edges.filter((edge) => edge.label === 'HAS_TURN')) turnsOf.set(e.source, [...(turnsOf.get(e.source) ?? []), Number(e.target.split('#')[1])]);
    expect(turnsOf.size).toBeGreaterThan(0);
    for (const turns of turnsOf.values()) expect(turns).toEqual([...turns].sort((a, b) => a - b));
    expect((await authed(api.port, '/knowledge/graph.json')).json()).toEqual(body);

    const small = await authed(api.port, '/knowledge/graph.json?limit=4');
    expect(small.json<{ nodes: unknown[] }>().nodes).toHaveLength(4);
    const bad = await authed(api.port, '/knowledge/graph.json?limit=5001');
    expect(bad.status).toBe(400);
    expect(bad.json()).toMatchObject({ ok: false, code: 'BAD_REQUEST' });
  });

  it('answers 404 NOT_FOUND for an unknown path, and the page paths only with view', async () => {
    for (const path of ['/knowledge/nope', '/knowledge', '/', '/cypher?q=RETURN%201', '/assets/cytoscape.min.js']) {
      const res = await authed(api.port, path);
      expect(res.status).toBe(404);
      expect(res.json()).toEqual({ ok: false, code: 'NOT_FOUND', message: `There is nothing at ${path.split('?')[0] ?? ''}.` });
    }
  });

  it('answers 405 METHOD_NOT_ALLOWED to anything but GET and HEAD, with no CORS headers', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) {
      const res = await authed(api.port, '/knowledge/cypher?q=RETURN%201', { method, headers: { origin: `http://localhost:${api.port}` } });
      expect(res.status).toBe(405);
      expect(res.headers['allow']).toBe('GET, HEAD');
      expect(res.json()).toEqual({ ok: false, code: 'METHOD_NOT_ALLOWED', message: `${method} is not allowed here: the API only reads (GET).` });
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    }
    const head = await authed(api.port, '/knowledge/status', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const get = await authed(api.port, '/knowledge/status', { headers: { origin: `http://127.0.0.1:${api.port}` } });
    expect(get.status).toBe(200);
    expect(Object.keys(get.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it('refuses what a page of another site asks for (403 FORBIDDEN), and answers its own page and local programs', async () => {
    const forbidden = { ok: false, code: 'FORBIDDEN', message: 'This server answers its own page and local programs only, not requests another site makes.' };
    const q = `/knowledge/cypher?q=${encodeURIComponent('MATCH (c:Customer) RETURN c.userKey')}`;
    const crossSite: Array<Record<string, string>> = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: `http://127.0.0.1:${api.port + 1}` },
    ];
    for (const headers of crossSite) {
      const res = await authed(api.port, q, { headers });
      expect({ headers, status: res.status }).toEqual({ headers, status: 403 });
      expect(res.json()).toEqual(forbidden);
    }
    expect((await authed(api.port, q)).status).toBe(200);
    expect((await authed(api.port, q, { headers: { 'sec-fetch-site': 'none' } })).status).toBe(200);
    expect((await authed(view.port, '/cypher?q=RETURN%201', { headers: { 'sec-fetch-site': 'same-origin', origin: `http://localhost:${view.port}` } })).status).toBe(200);
  });

  it('refuses statements that write files or load extensions through the read-only API, writing no file', async () => {
    const { existsSync, mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = mkdtempSync(join(tmpdir(), 'kg-copy-'));
    try {
      for (const statement of [`COPY (MATCH (c:Customer) RETURN c.userKey) TO '${join(dir, 'out.csv')}'`, `/* x */ export database '${join(dir, 'dump')}'`, 'LOAD EXTENSION json', 'INSTALL json']) {
        const res = await authed(api.port, `/knowledge/cypher?q=${encodeURIComponent(statement)}`);
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(res.json()).toMatchObject({ ok: false, message: expect.stringContaining('reaches files or extensions beyond the graph') });
      }
      expect(existsSync(join(dir, 'out.csv'))).toBe(false);
      expect(existsSync(join(dir, 'dump'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses requests whose Host is not 127.0.0.1:<port> or localhost:<port> (403 FORBIDDEN, DNS rebinding)', async () => {
    const forbidden = { ok: false, code: 'FORBIDDEN', message: 'This server answers only requests addressed to 127.0.0.1 or localhost with its port.' };
    for (const host of ['evil.example', `evil.example:${api.port}`, `127.0.0.1:${api.port + 1}`, '127.0.0.1', `localhost.evil.example:${api.port}`, `[::1]:${api.port}`]) {
      const res = await authed(api.port, '/knowledge/status', { headers: { host } });
      expect(res.status).toBe(403);
      expect(res.json()).toEqual(forbidden);
    }
    expect(await statusWithoutHost(api.port, '/knowledge/status')).toBe('HTTP/1.1 403 Forbidden');
    for (const host of [`localhost:${api.port}`, `LOCALHOST:${api.port}`, `127.0.0.1:${api.port}`]) {
      expect((await authed(api.port, '/knowledge/status', { headers: { host } })).status).toBe(200);
    }
    const page = await authed(view.port, '/', { headers: { host: `evil.example:${view.port}` } });
    expect(page.status).toBe(403);
  });

  it('serves the view page with a CSP that allows only its own origin, and no inline script or handler', async () => {
    const res = await authed(view.port, '/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/unsafe|https?:|\*/);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.text).not.toMatch(/<script(?![^>]*\ssrc=)/);
    expect(res.text).not.toMatch(/\son[a-z]+=/i);
    expect(res.text).not.toMatch(/\sstyle=/i);
    expect(res.text).not.toMatch(/https?:\/\//);
    expect(res.text).toContain('<script src="/assets/cytoscape.min.js" defer></script>');
  });

  it('serves cytoscape from the installed package and its own script, style and icon', async () => {
    const cytoscape = await authed(view.port, '/assets/cytoscape.min.js');
    expect(cytoscape.status).toBe(200);
    expect(cytoscape.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(cytoscape.text).toBe(readFileSync(require.resolve('cytoscape/dist/cytoscape.min.js'), 'utf8'));
    for (const [path, type] of [
      ['/assets/view.js', 'text/javascript; charset=utf-8'],
      ['/assets/view.css', 'text/css; charset=utf-8'],
      ['/assets/icon.svg', 'image/svg+xml'],
    ] as const) {
      const res = await authed(view.port, path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      expect(res.text).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    }
  });

  it('serves the page read-only /cypher?q= as /knowledge/cypher, refusing writes', async () => {
    const q = encodeURIComponent('MATCH (c:Conversation) RETURN c.convId AS conv, c.ended AS ended ORDER BY conv');
    const res = await authed(view.port, `/cypher?q=${q}`);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({
      ok: true,
      columns: ['conv', 'ended'],
      types: ['STRING', 'BOOL'],
      rows: [
        ['conv-1', true],
        ['conv-2', false],
        ['conv-3', false],
      ],
    });
    const write = await authed(view.port, `/cypher?q=${encodeURIComponent("MATCH (c:Conversation) SET c.ended = true")}`);
    expect(write.status).toBe(400);
    expect(write.json()).toMatchObject({ ok: false, code: 'BAD_QUERY' });
    expect((await authed(view.port, '/cypher')).status).toBe(400);
  });
});

describe('the knowledge query API without an installed graph', () => {
  let temp: TempGraph;
  beforeEach(() => (temp = tempGraph()));
  afterEach(() => temp.remove());

  it('answers status with installed:false and 503 NOT_INSTALLED elsewhere when the schema is missing', async () => {
    await (await KnowledgeGraph.open(temp.path, { bufferPoolMb: 64 })).close();
    const graph = await KnowledgeGraph.open(temp.path, { readOnly: true, bufferPoolMb: 64 });
    const server = await startKnowledgeServer({ backend: graphBackend(graph), port: 0, view: true, token: TOKEN });
    try {
      const status = await authed(server.port, '/knowledge/status');
      expect(status.status).toBe(200);
      expect(status.json()).toMatchObject({ ok: true, installed: false, nodes: {}, relations: {} });
      for (const path of ['/knowledge/cypher?q=RETURN%201', '/knowledge/search?q=refund', '/knowledge/graph.json', '/cypher?q=RETURN%201']) {
        const res = await authed(server.port, path);
        expect(res.status).toBe(503);
        expect(res.json()).toEqual({
          ok: false,
          code: 'NOT_INSTALLED',
          message: `The knowledge graph at ${temp.path} is not installed yet: run \`brandwire knowledge install\` and \`brandwire knowledge build\` first.`,
        });
      }
    } finally {
      await server.close();
      await graph.close();
    }
  });

  it('answers 503 GRAPH_NEEDS_REPAIR to a search when a write that stopped before it finished left a full-text index missing', async () => {
    await buildSampleGraph(temp.path);
    const writer = await KnowledgeGraph.open(temp.path, { bufferPoolMb: 64 });
    await writer.query("CALL DROP_FTS_INDEX('Inquiry', 'inquiry_text')", undefined, { write: true });
    await writer.close();
    const graph = await KnowledgeGraph.open(temp.path, { readOnly: true, bufferPoolMb: 64 });
    const server = await startKnowledgeServer({ backend: graphBackend(graph), port: 0, token: TOKEN });
    try {
      const res = await authed(server.port, '/knowledge/search?q=refund');
      expect([res.status, res.json()]).toEqual([503, { ok: false, code: 'GRAPH_NEEDS_REPAIR', message: expect.stringMatching(/^The knowledge graph needs repair: .*brandwire knowledge install/) as unknown }]);
    } finally {
      await server.close();
      await graph.close();
    }
  }, GRAPH_SETUP_MS);

  it('answers status with installed:false and 503 NOT_INSTALLED elsewhere when there is no graph at all', async () => {
    const server = await startKnowledgeServer({ backend: missingGraphBackend(temp.path, 'install it.'), port: 0, token: TOKEN });
    try {
      expect((await authed(server.port, '/knowledge/status')).json()).toEqual({
        ok: true,
        service: 'brandwire-knowledge',
        path: temp.path,
        readOnly: true,
        installed: false,
        kuzuVersion: '0.11.3',
        nodes: {},
        relations: {},
        ftsIndexes: [],
      });
      const res = await authed(server.port, '/knowledge/graph.json');
      expect(res.status).toBe(503);
      expect(res.json()).toEqual({ ok: false, code: 'NOT_INSTALLED', message: `The knowledge graph at ${temp.path} is not installed yet: install it.` });
    } finally {
      await server.close();
    }
  });

  it('answers 500 INTERNAL without a stack when the graph fails unexpectedly, and tells onError', async () => {
    await (await KnowledgeGraph.open(temp.path, { bufferPoolMb: 64 })).close();
    const graph = await KnowledgeGraph.open(temp.path, { readOnly: true, bufferPoolMb: 64 });
    await graph.close();
    const failures: string[] = [];
    const server = await startKnowledgeServer({ backend: graphBackend(graph), port: 0, token: TOKEN, onError: (error, path) => failures.push(`${path}: ${(error as Error).message}`) });
    try {
      const res = await authed(server.port, '/knowledge/status');
      expect(res.status).toBe(500);
      expect(res.json()).toEqual({ ok: false, code: 'INTERNAL', message: 'The knowledge graph is closed.' });
      expect(failures).toEqual(['/knowledge/status: The knowledge graph is closed.']);
    } finally {
      await server.close();
    }
  });

  it('refuses a port in use with PORT_IN_USE', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      await expect(startKnowledgeServer({ backend: missingGraphBackend(temp.path), port, token: TOKEN })).rejects.toMatchObject({
        name: 'KnowledgeApiError',
        code: 'PORT_IN_USE',
        message: `Port ${port} on 127.0.0.1 is already in use by another program.`,
      });
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });
});
