import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceHarness, TOKENS } from '../test-support/service-harness';
import { PAIRINGS_PER_MINUTE } from './pairing-rate-limit';

interface CodeReply {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

describe('device pairing (RFC 8628)', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  async function newCode(): Promise<CodeReply> {
    const reply = await h.post<CodeReply>('/api/auth/device/code', {}, null);
    expect(reply.status).toBe(200);
    return reply.body;
  }

  const poll = (deviceCode: string, extra: Record<string, unknown> = {}) => h.post('/api/auth/device/token', { device_code: deviceCode, ...extra }, null);

  it('hands out a device code, a user code, the pairing page URL, the expiry and the interval', async () => {
    const code = await newCode();
    expect(code).toEqual({
      device_code: expect.stringMatching(/^[\w-]{43}$/),
      user_code: expect.stringMatching(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/),
      verification_uri: `${h.url}/pair`,
      verification_uri_complete: `${h.url}/pair?code=${code.user_code}`,
      expires_in: 600,
      interval: 5,
    });
  });

  it('answers authorization_pending, then slow_down with a longer interval when polled too fast', async () => {
    const code = await newCode();
    const first = await poll(code.device_code);
    expect(first.status).toBe(400);
    expect(first.body).toEqual({ error: 'authorization_pending', error_description: expect.any(String) });
    const second = await poll(code.device_code, { grant_type: 'urn:ietf:params:oauth:grant-type:device_code' });
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ error: 'slow_down', error_description: 'poll at most every 10 seconds', interval: 10 });
    expect(second.text).not.toContain('"ok"');
  });

  it('takes the form-encoded requests of RFC 8628 as well as JSON', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const started = await h.request<CodeReply>('POST', '/api/auth/device/code', { token: null, rawBody: 'client_id=brandwire-cli', headers: form });
    expect(started.status).toBe(200);
    const rawBody = `grant_type=${encodeURIComponent('urn:ietf:params:oauth:grant-type:device_code')}&device_code=${started.body.device_code}`;
    const polled = await h.request('POST', '/api/auth/device/token', { token: null, rawBody, headers: form });
    expect([polled.status, polled.body['error']]).toEqual([400, 'authorization_pending']);
    // only there: elsewhere a form body is still refused
    const elsewhere = await h.request('POST', '/api/agent/send', { rawBody: 'brandKey=acme-kakao', headers: form });
    expect(elsewhere.status).toBe(415);
  });

  it('refuses malformed polls with the RFC errors', async () => {
    expect((await h.post('/api/auth/device/token', {}, null)).body).toMatchObject({ error: 'invalid_request' });
    expect((await poll('not-a-device-code')).body).toMatchObject({ error: 'invalid_grant' });
    expect((await poll('x', { grant_type: 'password' })).body).toMatchObject({ error: 'unsupported_grant_type' });
  });

  it('issues the approved key exactly once, with the chosen scope and brands, stored only as a hash', async () => {
    const code = await newCode();
    const approve = await h.post('/api/auth/device/approve', { user_code: code.user_code.toLowerCase(), scope: 'BrandRead', brands: ['acme'], name: 'laptop' }, TOKENS.admin);
    expect(approve.status).toBe(200);
    expect(approve.body).toEqual({ ok: true, user_code: code.user_code, state: 'approved' });

    const issued = await poll(code.device_code);
    expect(issued.status).toBe(200);
    expect(issued.body).toEqual({ access_token: expect.stringMatching(/^bw_/), token_type: 'Bearer', scope: 'BrandRead', brands: ['acme'], name: 'laptop' });
    const token = issued.body['access_token'] as string;
    expect((await h.get('/api/agent/me', token)).body).toMatchObject({ name: 'laptop', scope: 'BrandRead', brands: [{ id: 'acme' }] });

    const again = await poll(code.device_code);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ error: 'invalid_grant' });
    for (const file of readdirSync(h.dataDir).filter((f) => f.startsWith('brandwire.db'))) {
      const bytes = readFileSync(join(h.dataDir, file));
      expect(bytes.includes(token)).toBe(false);
      expect(bytes.includes(code.device_code)).toBe(false);
    }
  });

  it('answers access_denied once the code is denied', async () => {
    const code = await newCode();
    expect((await h.post('/api/auth/device/deny', { user_code: code.user_code }, TOKENS.admin)).body).toEqual({ ok: true, user_code: code.user_code, state: 'denied' });
    expect((await poll(code.device_code)).body).toMatchObject({ error: 'access_denied' });
    const late = await h.post('/api/auth/device/approve', { user_code: code.user_code, scope: 'Admin', brands: ['acme'] }, TOKENS.admin);
    expect(late.status).toBe(400);
    expect(late.body).toEqual({ ok: false, code: 'BAD_REQUEST', message: 'this code was already denied' });
  });

  it('lets only an Admin key decide, for its own brands and known codes', async () => {
    const code = await newCode();
    const writer = await h.post('/api/auth/device/approve', { user_code: code.user_code, scope: 'BrandWrite', brands: ['acme'] }, TOKENS.writer);
    expect(writer.status).toBe(403);
    expect(writer.body).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    expect((await h.post('/api/auth/device/deny', { user_code: code.user_code }, null)).status).toBe(401);
    const foreign = await h.post('/api/auth/device/approve', { user_code: code.user_code, scope: 'BrandWrite', brands: ['globex'] }, TOKENS.admin);
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual({ ok: false, code: 'FORBIDDEN', message: 'the approving key has no access to brand "globex"' });
    const unknown = await h.post('/api/auth/device/approve', { user_code: 'BBBB-BBBB', scope: 'BrandWrite', brands: ['acme'] }, TOKENS.admin);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    const badScope = await h.post('/api/auth/device/approve', { user_code: code.user_code, scope: 'Root', brands: ['acme'] }, TOKENS.admin);
    expect(badScope.status).toBe(400);
    expect(badScope.body).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('scope') });
  });

  it('answers expired_token and refuses approval once the code expired', async () => {
    const code = await newCode();
    expect((await h.post('/sandbox/clock', { advanceSeconds: 601 })).status).toBe(200);
    expect((await poll(code.device_code)).body).toMatchObject({ error: 'expired_token' });
    const approve = await h.post('/api/auth/device/approve', { user_code: code.user_code, scope: 'BrandWrite', brands: ['acme'] }, TOKENS.admin);
    expect(approve.status).toBe(409);
    expect(approve.body).toMatchObject({ ok: false, code: 'EXPIRED' });
  });

  it('serves the pairing page and its script and style from this origin under a strict CSP', async () => {
    const page = await fetch(`${h.url}/pair?code=BCDF-GHJK`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect({
      nosniff: page.headers.get('x-content-type-options'),
      framing: page.headers.get('x-frame-options'),
      referrer: page.headers.get('referrer-policy'),
      cache: page.headers.get('cache-control'),
    }).toEqual({ nosniff: 'nosniff', framing: 'DENY', referrer: 'no-referrer', cache: 'no-store' });
    const html = await page.text();
    expect(html).toContain('<script src="/pair/pair.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    const script = await fetch(`${h.url}/pair/pair.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toContain('/api/auth/device/');
    const style = await fetch(`${h.url}/pair/pair.css`);
    expect(style.headers.get('content-type')).toBe('text/css; charset=utf-8');
    for (const asset of [script, style]) {
      expect([asset.headers.get('x-content-type-options'), asset.headers.get('content-security-policy')]).toEqual(['nosniff', "default-src 'none'"]);
    }
  });
});

describe('device pairing behind a load balancer', () => {
  it('gives the pairing page at BRANDWIRE_PUBLIC_URL, whatever the request says of its scheme and host', async () => {
    const h = await ServiceHarness.start({ env: { BRANDWIRE_PUBLIC_URL: 'https://brandwire.example.com/' } });
    try {
      const reply = await h.request<CodeReply>('POST', '/api/auth/device/code', { token: null, body: {}, headers: { 'x-forwarded-proto': 'http', host: 'evil.example' } });
      expect(reply.body).toMatchObject({
        verification_uri: 'https://brandwire.example.com/pair',
        verification_uri_complete: `https://brandwire.example.com/pair?code=${reply.body.user_code}`,
      });
    } finally {
      await h.stop();
    }
  });
});

describe('device pairing: starts per client address', () => {
  it(`refuses pairings past ${PAIRINGS_PER_MINUTE} started from one address within a minute with 429, saying when to try again; polls go on`, async () => {
    const h = await ServiceHarness.start();
    try {
      const started = [];
      for (let i = 0; i < PAIRINGS_PER_MINUTE; i += 1) started.push(await h.post<CodeReply>('/api/auth/device/code', {}, null));
      expect(started.map((reply) => reply.status)).toEqual(Array(PAIRINGS_PER_MINUTE).fill(200));
      const refused = await h.post('/api/auth/device/code', {}, null);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        ok: false,
        code: 'RATE_LIMITED',
        message: expect.stringMatching(new RegExp(`^too many pairings started from this address \\(at most ${PAIRINGS_PER_MINUTE} a minute\\): try again in \\d+ s$`)),
      });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      const first = started[0]?.body.device_code ?? '';
      expect(await h.post('/api/auth/device/token', { device_code: first, grant_type: 'urn:ietf:params:oauth:grant-type:device_code' }, null)).toMatchObject({
        status: 400,
        body: { error: 'authorization_pending' },
      });
    } finally {
      await h.stop();
    }
  });
});

describe('device pairing behind a proxy the service trusts (TRUST_PROXY)', () => {
  it("counts the pairings of each client the proxy names, and a client's own X-Forwarded-For only when the proxy is trusted", async () => {
    const startFrom = (h: ServiceHarness, client: string) => h.request('POST', '/api/auth/device/code', { token: null, body: {}, headers: { 'x-forwarded-for': client } });
    const trusting = await ServiceHarness.start({ env: { TRUST_PROXY: 'loopback' } });
    try {
      for (let i = 0; i < PAIRINGS_PER_MINUTE; i += 1) expect((await startFrom(trusting, '203.0.113.1')).status).toBe(200);
      expect((await startFrom(trusting, '203.0.113.1')).status).toBe(429);
      expect((await startFrom(trusting, '203.0.113.2')).status).toBe(200);
    } finally {
      await trusting.stop();
    }
    const untrusting = await ServiceHarness.start();
    try {
      for (let i = 0; i < PAIRINGS_PER_MINUTE; i += 1) expect((await startFrom(untrusting, `203.0.113.${i + 10}`)).status).toBe(200);
      expect((await startFrom(untrusting, '203.0.113.99')).status).toBe(429);
    } finally {
      await untrusting.stop();
    }
  });
});
