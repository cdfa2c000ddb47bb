import { ModulesContainer, Reflector } from '@nestjs/core';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ServiceHarness, TOKENS } from '../../test-support/service-harness';
import { BrandAccessService } from './brand-access.service';
import type { Principal } from './principal';
import { ROUTE_ACCESS, type RouteAccess } from './route-access';

describe('authentication and scopes', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  const send = { brandKey: 'acme-kakao', userKey: 'u1', text: 'hi' };

  it('declares an access rule on every route (deny by default)', () => {
    const reflector = h.service.app.get(Reflector);
    const routes: string[] = [];
    const undeclared: string[] = [];
    for (const module of h.service.app.get(ModulesContainer).values()) {
      for (const wrapper of module.controllers.values()) {
        const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
        if (!controller) continue;
        const prototype = controller.prototype as Record<string, unknown>;
        for (const name of Object.getOwnPropertyNames(prototype)) {
          const handler = prototype[name];
          if (name === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(METHOD_METADATA, handler) === undefined) continue;
          const route = `${controller.name}.${name} ${String(Reflect.getMetadata(PATH_METADATA, handler))}`;
          routes.push(route);
          const access = reflector.getAllAndOverride<RouteAccess | undefined>(ROUTE_ACCESS, [handler, controller]);
          if (!access) undeclared.push(route);
        }
      }
    }
    expect(routes.length).toBeGreaterThan(8);
    expect(undeclared).toEqual([]);
  });

  it('refuses a request without Authorization with 401 UNAUTHORIZED', async () => {
    const reply = await h.post('/api/agent/send', send, null);
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ ok: false, code: 'UNAUTHORIZED', message: expect.stringContaining('Authorization') });
  });

  it('refuses an unknown key with 401 UNAUTHORIZED', async () => {
    const reply = await h.post('/api/agent/send', send, 'not-a-key-of-ours-000000');
    expect(reply.status).toBe(401);
    expect(reply.body).toEqual({ ok: false, code: 'UNAUTHORIZED', message: 'unknown key' });
  });

  it('refuses a header that is not a bearer key with 401', async () => {
    const reply = await h.request('POST', '/api/agent/send', { body: send, token: null, headers: { authorization: `Basic ${TOKENS.writer}` } });
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
  });

  it('refuses a BrandRead key on a send with 403 FORBIDDEN saying which scope is needed', async () => {
    const reply = await h.post('/api/agent/send', send, TOKENS.reader);
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ ok: false, code: 'FORBIDDEN', message: expect.stringMatching(/scope BrandRead.*needs BrandWrite/) });
  });

  it('refuses a key of another brand with 403 FORBIDDEN naming the brand key, and nothing of the brand behind it', async () => {
    const reply = await h.post('/api/agent/send', send, TOKENS.otherBrand);
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({ ok: false, code: 'FORBIDDEN', message: 'this key has no access to brandKey "acme-kakao": its channels are globex-kakao' });
    const read = await h.get('/api/agent/rooms?brand=acme-kakao', TOKENS.otherBrand);
    expect(read.status).toBe(403);
    expect(read.body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('brand "acme-kakao"') });
  });

  it('answers a channel that does not exist as one of another brand: 403 FORBIDDEN listing the channels the key reaches', async () => {
    const foreign = await h.post('/api/agent/send', { ...send, brandKey: 'globex-kakao' });
    const missing = await h.post('/api/agent/send', { ...send, brandKey: 'nosuch' });
    expect([foreign.status, missing.status]).toEqual([403, 403]);
    expect(foreign.body).toEqual({ ok: false, code: 'FORBIDDEN', message: 'this key has no access to brandKey "globex-kakao": its channels are acme-kakao, acme-naver' });
    expect(missing.body).toEqual({ ok: false, code: 'FORBIDDEN', message: 'this key has no access to brandKey "nosuch": its channels are acme-kakao, acme-naver' });
    // the same in a query, naming its field
    const foreignRead = await h.get('/api/agent/rooms?brand=globex-kakao', TOKENS.reader);
    const missingRead = await h.get('/api/agent/rooms?brand=nosuch', TOKENS.reader);
    expect([foreignRead.status, missingRead.status]).toEqual([403, 403]);
    expect(foreignRead.body).toEqual({ ok: false, code: 'FORBIDDEN', message: 'this key has no access to brand "globex-kakao": its channels are acme-kakao, acme-naver' });
    expect(missingRead.body).toEqual({ ok: false, code: 'FORBIDDEN', message: 'this key has no access to brand "nosuch": its channels are acme-kakao, acme-naver' });
  });

  it('says so when the key reaches no channel at all', async () => {
    const access = h.service.app.get(BrandAccessService);
    const principal: Principal = { keyId: 'k-none', name: 'none', scope: 'BrandWrite', brandIds: [] };
    const refusal: unknown = await access.channelFor(principal, 'acme-kakao').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ code: 'FORBIDDEN', message: 'this key has no access to brandKey "acme-kakao": it reaches no channel' });
  });

  it('lets BrandRead, BrandWrite and Admin keys read', async () => {
    for (const token of [TOKENS.reader, TOKENS.writer, TOKENS.admin]) {
      expect((await h.get('/api/agent/rooms?brand=acme-kakao', token)).status).toBe(200);
    }
  });

  it('refuses the upstream callbacks without the partner key', async () => {
    const reply = await h.post('/upstream/message', { sender_key: 'x', user_key: 'u', session_id: '1', type: 'text', contents: ['hi'] }, null);
    expect(reply.status).toBe(401);
    expect(reply.body).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
  });

  it('answers an unknown route with 404 NO_ROUTE in the envelope', async () => {
    const reply = await h.get('/api/agent/nothing-here');
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ ok: false, code: 'NO_ROUTE' });
  });

  it('stores keys only as hashes', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    const files = readdirSync(h.dataDir).filter((f) => f.startsWith('brandwire.db'));
    expect(files).toContain('brandwire.db');
    for (const f of files) expect(readFileSync(join(h.dataDir, f)).includes(TOKENS.writer)).toBe(false);
  });
});

describe('a request body, read only once the key is let in', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  /** 1 MB (the default JSON_BODY_LIMIT) of JSON that never closes; and a body just over the limit. */
  const unclosed = '{"brandKey":"acme-kakao","text":"';
  const malformed = unclosed + 'x'.repeat(1024 * 1024 - unclosed.length);
  const oversized = `{"brandKey":"acme-kakao","text":"${'x'.repeat(1024 * 1024)}"}`;
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it.each([
    ['no Authorization header', {}, 'missing Authorization header: send "Authorization: Bearer <key>"'],
    ['an unknown key', bearer('not-a-key-of-ours-000000'), 'unknown key'],
    ['a header that is not a bearer key', { authorization: `Basic ${TOKENS.writer}` }, 'the Authorization header must be "Bearer <key>"'],
  ])('answers a malformed 1 MB body with %s with 401 UNAUTHORIZED, not a complaint about the body', async (_, headers, message) => {
    const reply = await h.request('POST', '/api/agent/send', { token: null, rawBody: malformed, headers });
    expect([reply.status, reply.body]).toEqual([401, { ok: false, code: 'UNAUTHORIZED', message }]);
  });

  it('answers a body over the limit, or of a type no route takes, without a valid key with 401: the body was never read', async () => {
    const large = await h.request('POST', '/api/agent/send', { token: null, rawBody: oversized });
    expect([large.status, large.body['code']]).toEqual([401, 'UNAUTHORIZED']);
    const unknownKey = await h.request('POST', '/api/agent/send', { token: 'not-a-key-of-ours-000000', rawBody: oversized });
    expect([unknownKey.status, unknownKey.body['code']]).toEqual([401, 'UNAUTHORIZED']);
    const plain = await h.request('POST', '/api/agent/send', { token: null, rawBody: 'brandKey=acme-kakao', headers: { 'content-type': 'text/plain' } });
    expect([plain.status, plain.body['code']]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('answers the messenger callbacks without the partner key with 401 before reading their body', async () => {
    const reply = await h.request('POST', '/upstream/message', { token: null, rawBody: malformed });
    expect([reply.status, reply.body['code']]).toEqual([401, 'UNAUTHORIZED']);
  });

  it('still reads the body of a request with a valid key: 400 naming what is wrong with it, 413 over the limit, 415 for another type', async () => {
    const bad = await h.request('POST', '/api/agent/send', { token: TOKENS.writer, rawBody: malformed });
    expect([bad.status, bad.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'the request body is not valid JSON' }]);
    const list = await h.request('POST', '/api/agent/send', { token: TOKENS.writer, rawBody: '[]' });
    expect([list.status, list.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'the request body must be a JSON object' }]);
    const large = await h.request('POST', '/api/agent/send', { token: TOKENS.writer, rawBody: oversized });
    expect([large.status, large.body]).toEqual([413, { ok: false, code: 'PAYLOAD_TOO_LARGE', message: 'the request body is larger than the limit of 1048576 bytes' }]);
    const plain = await h.request('POST', '/api/agent/send', { token: TOKENS.writer, rawBody: '{}', headers: { 'content-type': 'text/plain' } });
    expect([plain.status, plain.body['code']]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
  });

  it('still answers a key without the scope with 403, whatever its body', async () => {
    const reply = await h.request('POST', '/api/agent/send', { token: TOKENS.reader, rawBody: malformed });
    expect([reply.status, reply.body['code']]).toEqual([403, 'FORBIDDEN']);
  });

  it('reads the body of a public route without any key: its fields arrive, and a malformed one is 400', async () => {
    const polled = await h.request('POST', '/api/auth/device/token', { token: null, body: { grant_type: 'password', device_code: 'x' } });
    expect([polled.status, polled.body['error']]).toEqual([400, 'unsupported_grant_type']);
    const bad = await h.request('POST', '/api/auth/device/token', { token: null, rawBody: '{"device_code":' });
    expect([bad.status, bad.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'the request body is not valid JSON' }]);
  });
});

describe('GET /api/agent/me', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("shows the key's name, scope, and the brands it was given with their channel keys", async () => {
    const reply = await h.get('/api/agent/me', TOKENS.writer);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      ok: true,
      name: 'agent',
      scope: 'BrandWrite',
      brands: [
        {
          id: 'acme',
          name: 'Acme',
          channels: [
            { key: 'acme-kakao', name: 'Acme Kakao', type: 'kakao', chatbotBuilder: true, plan: { consultations: 1000, used: 0, remaining: 1000 } },
            { key: 'acme-naver', name: 'Acme Naver', type: 'naver', chatbotBuilder: false, plan: { consultations: 1000, used: 0, remaining: 1000 } },
          ],
        },
      ],
      attachmentHost: 'talk-cdn.sandbox.invalid',
    });
  });
});
