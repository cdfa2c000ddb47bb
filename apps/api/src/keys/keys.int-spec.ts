import { hashToken } from '../common/auth/api-keys.service';
import { ServiceHarness, TOKENS } from '../test-support/service-harness';
import type { KeyDto as ListedKey } from './dto/keys.dto';

/** Reads a stream until it ends, or says it is still open after `ms`. */
async function untilEnded(body: ReadableStreamDefaultReader<Uint8Array>, ms: number): Promise<'ended' | 'still open'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      (async () => {
        for (;;) if ((await body.read()).done) return 'ended' as const;
      })(),
      new Promise<'still open'>((resolve) => (timer = setTimeout(() => resolve('still open'), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

describe('API keys: listing and revoking', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  /** A key of its own for each test that revokes one, so that the seed's keys stay for the others. */
  async function newKey(name: string, scope: 'BrandRead' | 'BrandWrite' | 'Admin', brands: string[]): Promise<{ token: string; id: string }> {
    const token = `test-${name}-token-${Math.random().toString(36).slice(2)}`;
    await h.service.runtime.store.directory.saveApiKey({ id: `key_${name}`, tokenHash: hashToken(token), name, scope, brandIds: brands });
    return { token, id: `key_${name}` };
  }

  const list = (token: string) => h.get<{ ok: boolean; keys: ListedKey[] }>('/api/agent/keys', token);
  const revoke = (id: string, token: string) => h.request<Record<string, unknown>>('DELETE', `/api/agent/keys/${encodeURIComponent(id)}`, { token });

  it("lists to an Admin key the keys of its brands, oldest first, marking its own, never a token or a hash", async () => {
    const reply = await list(TOKENS.admin);
    expect(reply.status).toBe(200);
    const names = reply.body.keys.map((k) => k.name);
    // the seed's keys are made within one millisecond or so: their order among themselves is their ids'
    expect(names.slice(0, 3).sort()).toEqual(['agent', 'ops', 'viewer']);
    expect(names).not.toContain('globex-agent');
    const times = reply.body.keys.map((k) => Date.parse(k.createdAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(reply.body.keys.find((k) => k.name === 'ops')).toEqual({ id: expect.stringMatching(/^key_[0-9a-f]{16}$/), name: 'ops', scope: 'Admin', brands: ['acme'], createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?[+-]\d\d:\d\d$/), current: true });
    expect(reply.body.keys.filter((k) => k.current).map((k) => k.name)).toEqual(['ops']);
    expect(reply.text).not.toContain(TOKENS.writer);
    expect(reply.text).not.toContain(hashToken(TOKENS.writer));
  });

  it('lists to any other key only itself', async () => {
    const reply = await list(TOKENS.reader);
    expect(reply.status).toBe(200);
    expect(reply.body.keys.map((k) => [k.name, k.current])).toEqual([['viewer', true]]);
  });

  it('lets an Admin key revoke a key of its brands: refused (401) from the next request on, listed no more', async () => {
    const victim = await newKey('temp-reader', 'BrandRead', ['acme']);
    expect((await h.get('/api/agent/me', victim.token)).status).toBe(200);
    const reply = await revoke(victim.id, TOKENS.admin);
    expect([reply.status, reply.body]).toEqual([200, { ok: true, id: victim.id, name: 'temp-reader', revoked: true, self: false }]);
    const after = await h.get('/api/agent/me', victim.token);
    expect([after.status, after.body]).toEqual([401, { ok: false, code: 'UNAUTHORIZED', message: expect.any(String) }]);
    expect((await list(TOKENS.admin)).body.keys.map((k) => k.id)).not.toContain(victim.id);
    const again = await revoke(victim.id, TOKENS.admin);
    expect([again.status, again.body]).toEqual([404, { ok: false, code: 'NOT_FOUND', message: `no key "${victim.id}" among the keys this key manages (GET /api/agent/keys lists them)` }]);
  });

  it('refuses the page a revoked key read before from the room page cache', async () => {
    const reader = await newKey('cached-reader', 'BrandRead', ['acme']);
    await h.customerWrites('cache-kim', { text: 'hello' });
    const path = '/api/agent/rooms/cache-kim/messages?brand=acme-kakao&max=5';
    expect((await h.get(path, reader.token)).status).toBe(200);
    expect((await h.get(path, reader.token)).status).toBe(200);
    expect((await revoke(reader.id, TOKENS.admin)).status).toBe(200);
    expect((await h.get(path, reader.token)).status).toBe(401);
  });

  it('lets any key revoke itself, and no key below Admin revoke another', async () => {
    const writer = await newKey('temp-writer', 'BrandWrite', ['acme']);
    const other = await revoke('key_does_not_matter', writer.token);
    expect([other.status, other.body]).toEqual([
      403,
      { ok: false, code: 'FORBIDDEN', message: `this key has scope BrandWrite: it may revoke only itself (its id is ${writer.id}); revoking another key needs an Admin key` },
    ]);
    const self = await revoke(writer.id, writer.token);
    expect([self.status, self.body]).toEqual([200, { ok: true, id: writer.id, name: 'temp-writer', revoked: true, self: true }]);
    expect((await h.get('/api/agent/me', writer.token)).status).toBe(401);
  });

  it("tells an Admin key of one brand nothing of another brand's keys: the same 404 as for no key at all", async () => {
    const globexKey = (await list(TOKENS.otherBrand)).body.keys[0] as ListedKey;
    const foreign = await revoke(globexKey.id, TOKENS.admin);
    const unknown = await revoke('key_0000000000000000', TOKENS.admin);
    expect([foreign.status, foreign.body]).toEqual([404, { ok: false, code: 'NOT_FOUND', message: `no key "${globexKey.id}" among the keys this key manages (GET /api/agent/keys lists them)` }]);
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await h.get('/api/agent/me', TOKENS.otherBrand)).status).toBe(200);
    // an Admin of acme does not manage a key that also reaches globex
    const wide = await newKey('wide', 'BrandRead', ['acme', 'globex']);
    expect((await list(TOKENS.admin)).body.keys.map((k) => k.name)).not.toContain('wide');
    expect((await revoke(wide.id, TOKENS.admin)).status).toBe(404);
  });

  it("leaves a key of no brand to itself: no brand's Admin key lists or revokes it", async () => {
    const operator = await newKey('operator', 'Admin', []);
    expect((await list(TOKENS.admin)).body.keys.map((k) => k.name)).not.toContain('operator');
    expect((await revoke(operator.id, TOKENS.admin)).status).toBe(404);
    expect((await list(operator.token)).body.keys.map((k) => [k.name, k.current])).toEqual([['operator', true]]);
    expect((await revoke(operator.id, operator.token)).status).toBe(200);
  });

  it('ends the signal stream of a key revoked by another instance at its next check of the key', async () => {
    const reader = await newKey('far-streamer', 'BrandRead', ['acme']);
    const response = await fetch(`${h.url}/api/agent/signals/stream?brand=acme-kakao&after=now`, { headers: { authorization: `Bearer ${reader.token}` } });
    expect(response.status).toBe(200);
    const body = (response.body as ReadableStream<Uint8Array>).getReader();
    await body.read();
    // another instance revokes it: the database says so, this instance's cache does not know
    expect(await h.service.runtime.store.directory.revokeApiKey(reader.id)).toBe(true);
    expect(await untilEnded(body, 15_000)).toBe('ended');
  }, 20_000);

  it('hands out no key for a pairing whose approving key was revoked before the device fetched it', async () => {
    const approver = await newKey('approver', 'Admin', ['acme']);
    const code = (await h.post<{ device_code: string; user_code: string }>('/api/auth/device/code', {}, null)).body;
    const approve = await h.post('/api/auth/device/approve', { user_code: code.user_code, scope: 'BrandWrite', brands: ['acme'] }, approver.token);
    expect(approve.status).toBe(200);
    expect((await revoke(approver.id, approver.token)).status).toBe(200);
    const poll = await h.post('/api/auth/device/token', { device_code: code.device_code }, null);
    expect([poll.status, poll.body]).toEqual([400, { error: 'access_denied', error_description: 'the key that approved this pairing has been revoked since: run login again and have it approved anew' }]);
  });

  it('ends the signal stream of a key when it is revoked, and refuses its reconnection', async () => {
    const reader = await newKey('streamer', 'BrandRead', ['acme']);
    const url = `${h.url}/api/agent/signals/stream?brand=acme-kakao&after=now`;
    const response = await fetch(url, { headers: { authorization: `Bearer ${reader.token}` } });
    expect(response.status).toBe(200);
    const body = (response.body as ReadableStream<Uint8Array>).getReader();
    await body.read();
    expect((await revoke(reader.id, TOKENS.admin)).status).toBe(200);
    expect(await untilEnded(body, 5_000)).toBe('ended');
    expect((await fetch(url, { headers: { authorization: `Bearer ${reader.token}` } })).status).toBe(401);
  });

  it('keeps a revoked key revoked when the seed naming it is applied again at the next start', async () => {
    const viewer = (await list(TOKENS.reader)).body.keys[0] as ListedKey;
    expect((await revoke(viewer.id, TOKENS.admin)).status).toBe(200);
    await h.restart();
    expect((await h.get('/api/agent/me', TOKENS.reader)).status).toBe(401);
    expect((await h.get('/api/agent/me', TOKENS.writer)).status).toBe(200);
  });

  it('lets an Admin key make a key of its brands, whose token is shown once and works at once', async () => {
    const made = await h.post<ListedKey & { ok: boolean; token: string }>('/api/agent/keys', { name: 'crm-sync', scope: 'BrandWrite', brands: ['acme', 'acme'] }, TOKENS.admin);
    expect([made.status, made.body]).toEqual([
      200,
      { ok: true, id: expect.stringMatching(/^key_[0-9a-f]{16}$/), name: 'crm-sync', scope: 'BrandWrite', brands: ['acme'], createdAt: expect.any(String), current: false, token: expect.stringMatching(/^bw_[\w-]{32}$/) },
    ]);
    const me = await h.get('/api/agent/me', made.body.token);
    expect([me.status, me.body['name'], me.body['scope']]).toEqual([200, 'crm-sync', 'BrandWrite']);
    const listed = (await list(TOKENS.admin)).text;
    expect(listed).toContain(made.body.id);
    expect(listed).not.toContain(made.body.token);
  });

  it('refuses to make a key below Admin, of a brand the creating key lacks, or from a malformed body', async () => {
    const writer = await h.post('/api/agent/keys', { name: 'x', scope: 'BrandRead', brands: ['acme'] }, TOKENS.writer);
    expect([writer.status, writer.body['code']]).toEqual([403, 'FORBIDDEN']);
    const foreign = await h.post('/api/agent/keys', { name: 'x', scope: 'BrandRead', brands: ['acme', 'globex'] }, TOKENS.admin);
    expect([foreign.status, foreign.body]).toEqual([403, { ok: false, code: 'FORBIDDEN', message: 'this key has no access to brand "globex"' }]);
    for (const [body, field] of [
      [{ scope: 'BrandRead', brands: ['acme'] }, 'name'],
      [{ name: 'a\u0007b', scope: 'BrandRead', brands: ['acme'] }, 'name'],
      [{ name: 'x', scope: 'Root', brands: ['acme'] }, 'scope'],
      [{ name: 'x', scope: 'BrandRead', brands: [] }, 'brands'],
      [{ name: 'x', scope: 'BrandRead', brands: ['acme'], token: 'chosen' }, 'token'],
    ] as const) {
      const reply = await h.post('/api/agent/keys', body, TOKENS.admin);
      expect({ field, status: reply.status, code: reply.body['code'] }).toEqual({ field, status: 400, code: 'BAD_REQUEST' });
      expect(String(reply.body['message'])).toContain(field);
    }
  });

  it('needs a key to list, make or revoke', async () => {
    expect((await h.get('/api/agent/keys', null)).status).toBe(401);
    expect((await h.post('/api/agent/keys', { name: 'x', scope: 'BrandRead', brands: ['acme'] }, null)).status).toBe(401);
    expect((await h.request('DELETE', '/api/agent/keys/key_x', { token: null })).status).toBe(401);
  });
});
