import { type ApiReply, ServiceHarness, TOKENS } from '../test-support/service-harness';

interface Schema {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  required?: string[];
  properties?: Record<string, Schema>;
  description?: string;
}

interface Response {
  description: string;
  content?: Record<string, { schema?: Schema }>;
}

interface Operation {
  parameters?: Array<{ name: string; in: string; schema?: Schema }>;
  requestBody?: { content: Record<string, { schema?: Schema }> };
  responses: Record<string, Response>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; securitySchemes: Record<string, Record<string, unknown>> };
}

const ENVELOPE = '#/components/schemas/ErrorEnvelope';
/** the only number that may have a fraction */
const FRACTIONAL = new Set(['AdvanceClockDto.advanceSeconds']);

describe('the OpenAPI document', () => {
  let h: ServiceHarness;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    h = await ServiceHarness.start();
    const reply = await h.get<OpenApiDocument>('/api/docs-json', null);
    expect(reply.status).toBe(200);
    doc = reply.body;
  });

  afterAll(async () => {
    await h.stop();
  });

  const op = (path: string, method = 'post'): Operation => {
    const found = doc.paths[path]?.[method];
    if (!found) throw new Error(`no ${method} ${path} in the document`);
    return found;
  };
  const operations = (): Array<{ route: string; path: string; op: Operation }> =>
    Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, o]) => ({ route: `${method.toUpperCase()} ${path}`, path, op: o })));
  const resolve = (schema: Schema | undefined): Schema | undefined => (schema?.$ref ? doc.components.schemas[schema.$ref.split('/').pop() ?? ''] : schema);
  /** the codes a response's description lists (`- \`CODE\`: why`) */
  const codesOf = (o: Operation, status: number): string[] => [...(o.responses[String(status)]?.description ?? '').matchAll(/`([A-Z_]+)`:/g)].map((m) => m[1] ?? '');
  const statuses = (o: Operation): number[] => Object.keys(o.responses).map(Number);
  /** a real answer of the service is documented: its status, with its code in the list */
  const expectDocumented = (o: Operation, reply: ApiReply) => {
    expect(codesOf(o, reply.status)).toContain(reply.body['code']);
  };

  it('serves its page with a policy that runs only its own files, in no frame', async () => {
    const page = await fetch(`${h.url}/api/docs/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    );
    expect([page.headers.get('x-frame-options'), page.headers.get('x-content-type-options')]).toEqual(['DENY', 'nosniff']);
    const html = await page.text();
    expect(html.match(/<script[^>]*>/g)?.every((tag) => /src="\.\//.test(tag))).toBe(true);
  });

  it('gives every answer a route makes on success a schema, so a generated client knows its fields', () => {
    const missing = operations()
      .filter(({ op: o }) => Object.entries(o.responses).some(([status, r]) => status.startsWith('2') && !Object.values(r.content ?? {}).some((media) => media.schema !== undefined)))
      .map(({ route }) => route);
    expect(missing).toEqual([]);
  });

  it('has one ErrorEnvelope schema { ok: false, code, message }', () => {
    expect(doc.components.schemas['ErrorEnvelope']).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['ok', 'code', 'message']),
      properties: { ok: { type: 'boolean', enum: [false] }, code: { type: 'string' }, message: { type: 'string' } },
    });
  });

  it('gives every error response a JSON body built on the ErrorEnvelope, and a description listing its codes', () => {
    const wrong: string[] = [];
    for (const { route, op: o } of operations()) {
      for (const [status, response] of Object.entries(o.responses)) {
        if (Number(status) < 400) continue;
        const schema = response.content?.['application/json']?.schema;
        const refs = [schema, ...(schema?.allOf ?? []), ...(schema?.oneOf ?? [])].map((s) => s?.$ref);
        if (!refs.includes(ENVELOPE)) wrong.push(`${route} ${status}: no envelope schema`);
        // the device token route answers the RFC 8628 errors with their own body; every other one lists its codes
        if (codesOf(o, Number(status)).length === 0 && route !== 'POST /api/auth/device/token') wrong.push(`${route} ${status}: no code listed`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lists each code with the status the domain gives it', () => {
    const misplaced: string[] = [];
    const expected: Record<string, number> = { BAD_REQUEST: 400, EMPTY: 400, UNAUTHORIZED: 401, PLAN_EXHAUSTED: 402, FORBIDDEN: 403, UNKNOWN_BRAND: 404, NOT_FOUND: 404, IDEMPOTENCY_CONFLICT: 409, NO_WEBHOOK: 409, EXPIRED: 409, PAYLOAD_TOO_LARGE: 413, IMAGE_TOO_LARGE: 413, UNSUPPORTED_MEDIA_TYPE: 415, RATE_LIMITED: 429, UPSTREAM_UNAVAILABLE: 502 };
    for (const { route, op: o } of operations()) {
      for (const status of statuses(o)) {
        for (const code of codesOf(o, status)) if (expected[code] !== undefined && expected[code] !== status) misplaced.push(`${route}: ${code} under ${status}`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('keeps error statuses out of the 200 descriptions', () => {
    const inOk = operations()
      .filter(({ op: o }) => /(?<![-\d])[45]\d\d(?!\d)/.test(o.responses['200']?.description ?? ''))
      .map(({ route }) => route);
    expect(inOk).toEqual([]);
  });

  it('documents the sends: 400, 402, 409 and 502 besides 401, 403, 413 and 415', () => {
    for (const path of ['/api/agent/send', '/api/agent/send/rich', '/api/agent/send/image', '/api/agent/send/attachments', '/api/agent/personal-info/request']) {
      expect({ path, statuses: statuses(op(path)) }).toEqual({ path, statuses: expect.arrayContaining([200, 400, 401, 402, 403, 409, 413, 415, 502]) });
      expect({ path, codes: [...codesOf(op(path), 402), ...codesOf(op(path), 409), ...codesOf(op(path), 502)] }).toEqual({
        path,
        codes: expect.arrayContaining(['PLAN_EXHAUSTED', 'IDEMPOTENCY_CONFLICT', 'UPSTREAM_UNAVAILABLE']),
      });
    }
    expect(codesOf(op('/api/agent/send/rich'), 400)).toEqual(expect.arrayContaining(['BAD_REQUEST', 'BAD_RICH', 'UNSUPPORTED_BUBBLE', 'UNSUPPORTED_CHANNEL']));
    expect(codesOf(op('/api/agent/send/rich'), 409)).toEqual(expect.arrayContaining(['IDEMPOTENCY_CONFLICT', 'NO_WEBHOOK']));
    expect(codesOf(op('/api/agent/send/image'), 400)).toContain('BAD_URL');
    expect(codesOf(op('/api/agent/personal-info/request'), 400)).toEqual(expect.arrayContaining(['EMPTY', 'UNSUPPORTED_CHANNEL']));
    expect(codesOf(op('/api/agent/personal-info/request'), 409)).toEqual(expect.arrayContaining(['IDEMPOTENCY_CONFLICT', 'NO_WEBHOOK']));
  });

  it('documents 409 IDEMPOTENCY_CONFLICT wherever the Idempotency-Key header is taken', () => {
    const keyed = operations().filter(({ op: o }) => o.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'));
    expect(keyed.length).toBe(5);
    for (const { route, op: o } of keyed) expect({ route, codes: codesOf(o, 409) }).toEqual({ route, codes: expect.arrayContaining(['IDEMPOTENCY_CONFLICT']) });
  });

  it('documents 403 FORBIDDEN, and no 404 UNKNOWN_BRAND, on every route that names a brand', () => {
    const namesBrand = (o: Operation) =>
      o.parameters?.some((p) => p.name === 'brand') === true ||
      Object.values(o.requestBody?.content ?? {}).some(({ schema }) => {
        const properties = resolve(schema)?.properties ?? {};
        return 'brandKey' in properties || 'brand' in properties;
      });
    const routes = operations().filter(({ op: o }) => namesBrand(o));
    expect(routes.length).toBeGreaterThan(30);
    const missing = routes.filter(({ op: o }) => !codesOf(o, 403).includes('FORBIDDEN')).map(({ route }) => route);
    expect(missing).toEqual([]);
    // an unknown channel is answered as one of another brand: no route may tell them apart in its documentation
    expect(operations().filter(({ op: o }) => codesOf(o, 404).includes('UNKNOWN_BRAND')).map(({ route }) => route)).toEqual([]);
  });

  it('documents 502 UPSTREAM_UNAVAILABLE on the routes that call the messenger', () => {
    const calling = [
      ...['send', 'send/rich', 'send/image', 'send/attachments', 'personal-info/request', 'delete', 'end', 'end-with-bot', 'block', 'unblock', 'upload/image', 'upload/file'].map((p) => `POST /api/agent/${p}`),
      'POST /api/agent/settings/chat/activate',
      'POST /api/agent/settings/chat/deactivate',
    ];
    for (const route of calling) {
      const [method = '', path = ''] = route.split(' ');
      expect({ route, codes: codesOf(op(path, method.toLowerCase()), 502) }).toEqual({ route, codes: ['UPSTREAM_UNAVAILABLE'] });
    }
  });

  it('documents the refusals of delete as responses of their own: 404 without a serial, 409 with it', () => {
    const del = op('/api/agent/delete');
    expect(codesOf(del, 404)).toEqual(['NOT_FOUND']);
    expect(del.responses['404']?.content?.['application/json']?.schema).toEqual({ $ref: ENVELOPE });
    expect(codesOf(del, 409).sort()).toEqual(['ALREADY_DELETED', 'EXPIRED', 'NOT_DELETABLE']);
    const refusal = del.responses['409']?.content?.['application/json']?.schema;
    expect(refusal?.allOf?.[0]).toEqual({ $ref: ENVELOPE });
    expect(refusal?.allOf?.[1]).toMatchObject({ required: ['serial'], properties: { serial: { type: 'string' } } });
    expect(codesOf(del, 400)).toEqual(['BAD_REQUEST']);
  });

  it('documents the upload and pairing errors as responses of their own', () => {
    expect(codesOf(op('/api/agent/upload/image'), 400)).toEqual(expect.arrayContaining(['BAD_REQUEST', 'UNSUPPORTED_IMAGE']));
    expect(codesOf(op('/api/agent/upload/image'), 413)).toEqual(expect.arrayContaining(['PAYLOAD_TOO_LARGE', 'IMAGE_TOO_LARGE']));
    expect(codesOf(op('/api/agent/upload/file'), 413)).toEqual(['PAYLOAD_TOO_LARGE']);
    for (const path of ['/api/auth/device/approve', '/api/auth/device/deny']) {
      expect({ path, statuses: statuses(op(path)) }).toEqual({ path, statuses: expect.arrayContaining([400, 401, 403, 404, 409]) });
      expect([...codesOf(op(path), 404), ...codesOf(op(path), 409)]).toEqual(['NOT_FOUND', 'EXPIRED']);
    }
  });

  it('documents no 403 on GET /api/agent/me: every scope may read it and it names no brand', () => {
    expect(statuses(op('/api/agent/me', 'get')).sort()).toEqual([200, 401, 429, 503]);
  });

  it('documents 503 STORAGE_UNAVAILABLE on every route that needs a key, and on /healthz', () => {
    const keyed = operations().filter(({ op: o }) => (o as { security?: unknown[] }).security !== undefined);
    expect(keyed.length).toBeGreaterThan(20);
    for (const { route, op: o } of keyed) expect([route, JSON.stringify(o.responses['503'] ?? null)]).toEqual([route, expect.stringContaining('STORAGE_UNAVAILABLE')]);
    expect(JSON.stringify(op('/healthz', 'get').responses['503'])).toContain('STORAGE_UNAVAILABLE');
  });

  it("documents 429 RATE_LIMITED, the key's limit a minute, on every route that needs a key", () => {
    const keyed = operations().filter(({ op: o }) => (o as { security?: unknown[] }).security !== undefined);
    for (const { route, op: o } of keyed) expect([route, JSON.stringify(o.responses['429'] ?? null)]).toEqual([route, expect.stringContaining('RATE_LIMIT_PER_KEY')]);
    for (const { route, op: o } of keyed) expect([route, JSON.stringify(o.responses['429'] ?? null)]).toEqual([route, expect.stringContaining('"Retry-After":{"description":"seconds until')]);
  });

  it('says the bearer keys are opaque bw_ API keys, not JWTs', () => {
    const bearer = doc.components.securitySchemes['bearer'];
    expect(bearer).toMatchObject({ type: 'http', scheme: 'bearer', description: expect.stringContaining('bw_') });
    expect(bearer).not.toHaveProperty('bearerFormat');
  });

  it('documents the body errors (400, 413, 415) on every route that takes a body: the body is read on every route, once the request is let in with its key', () => {
    const missing = operations()
      .filter(({ route }) => /^(POST|PUT|PATCH) /.test(route))
      .filter(({ op: o }) => !(['400', '413', '415'] as const).every((status) => o.responses[status] !== undefined))
      .map(({ route, op: o }) => `${route}: ${statuses(o).join(', ')}`);
    expect(missing).toEqual([]);
  });

  it('describes the fields of /healthz with their types', () => {
    const schema = resolve(op('/healthz', 'get').responses['200']?.content?.['application/json']?.schema);
    expect(schema).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['ok', 'storage']),
      properties: { ok: { type: 'boolean', enum: [true] }, storage: { type: 'string', enum: ['sqlite', 'postgres'] } },
    });
  });

  it('documents form-encoded and JSON bodies on POST /api/auth/device/token', () => {
    expect(Object.keys(op('/api/auth/device/token').requestBody?.content ?? {}).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
  });

  it('describes serials, nickname and phoneNumber on signals, optional', () => {
    const signal = doc.components.schemas['SignalDto'];
    expect(signal?.properties).toMatchObject({
      serials: { type: 'array', items: { type: 'string' }, description: expect.any(String) },
      nickname: { type: 'string', description: expect.stringContaining('personal_info') },
      phoneNumber: { type: 'string', description: expect.stringContaining('personal_info') },
    });
    expect(signal?.required).not.toEqual(expect.arrayContaining(['serials']));
    expect(signal?.required).not.toEqual(expect.arrayContaining(['nickname']));
    expect(signal?.required).not.toEqual(expect.arrayContaining(['phoneNumber']));
  });

  it('documents whole numbers as integers, with their bounds', () => {
    const schemas = doc.components.schemas;
    expect(schemas['DeleteDto']?.properties?.['withinSeconds']).toMatchObject({ type: 'integer', minimum: 10, maximum: 86400 });
    expect(schemas['SetPlanDto']?.properties?.['consultations']).toMatchObject({ type: 'integer', minimum: 0 });
    expect(schemas['PlanResponseDto']?.properties?.['consultations']).toMatchObject({ type: 'integer' });
    expect(schemas['CustomerTapDto']?.properties?.['quickReply']).toMatchObject({ type: 'integer', minimum: 0, maximum: 9 });
    const maxes = operations().flatMap(({ route, op: o }) => (o.parameters ?? []).filter((p) => p.name === 'max').map((p) => ({ route, schema: p.schema })));
    expect(maxes.map((m) => m.route).sort()).toEqual(
      ['GET /api/agent/conversations', 'GET /api/agent/conversations/export', 'GET /api/agent/rooms', 'GET /api/agent/rooms/{userKey}/messages', 'GET /api/agent/signals'].sort(),
    );
    for (const { route, schema } of maxes) expect({ route, schema }).toEqual({ route, schema: expect.objectContaining({ type: 'integer', minimum: 1, maximum: expect.any(Number) }) });
    const numbers = [
      ...Object.entries(schemas).flatMap(([name, s]) =>
        Object.entries(s.properties ?? {})
          .filter(([, p]) => p.type === 'number')
          .map(([field]) => `${name}.${field}`),
      ),
      ...operations().flatMap(({ route, op: o }) => (o.parameters ?? []).filter((p) => p.schema?.type === 'number').map((p) => `${route} ${p.name}`)),
    ];
    expect(numbers.filter((n) => !FRACTIONAL.has(n))).toEqual([]);
  });

  it('documents what the service really answers', async () => {
    const send = op('/api/agent/send');
    const unknown = await h.post('/api/agent/send', { brandKey: 'no-such-channel', userKey: 'u', text: 'x' });
    expect([unknown.status, unknown.body['code']]).toEqual([403, 'FORBIDDEN']);
    expectDocumented(send, unknown);
    const blank = await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey: '', text: 'x' });
    expect([blank.status, blank.body['code']]).toEqual([400, 'BAD_REQUEST']);
    expectDocumented(send, blank);
    const plain = await h.request('POST', '/api/agent/send', { rawBody: 'x', headers: { 'content-type': 'text/plain' } });
    expectDocumented(send, plain);

    await h.customerWrites('docs-1', { text: 'hello' });
    await h.customerWrites('docs-1', { text: 'hello' }, 'acme-naver');
    const personal = (brandKey: string) => h.post('/api/agent/send/rich', { brandKey, userKey: 'docs-1', rich: JSON.stringify({ chat_bubble_type: 'PERSONAL' }) });
    for (const reply of [await personal('acme-naver'), await personal('acme-kakao')]) expectDocumented(op('/api/agent/send/rich'), reply);
    const consent = await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'docs-1' });
    expect([consent.status, consent.body['code']]).toEqual([409, 'NO_WEBHOOK']);
    expectDocumented(op('/api/agent/personal-info/request'), consent);

    const del = op('/api/agent/delete');
    const notFound = await h.post('/api/agent/delete', { brandKey: 'acme-kakao', userKey: 'docs-1', serial: 'bw-0000000000000000-zzzzzz' });
    expect(notFound.status).toBe(404);
    expect(notFound.body).not.toHaveProperty('serial');
    expectDocumented(del, notFound);
    const sent = await h.post<{ serial: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'docs-1', text: 'to delete' });
    expect((await h.post('/api/agent/delete', { brandKey: 'acme-kakao', userKey: 'docs-1', serial: sent.body.serial })).status).toBe(200);
    const again = await h.post('/api/agent/delete', { brandKey: 'acme-kakao', userKey: 'docs-1', serial: sent.body.serial });
    expect(again.body).toEqual({ ok: false, code: 'ALREADY_DELETED', message: expect.any(String), serial: sent.body.serial });
    expectDocumented(del, again);

    const pairing = op('/api/auth/device/code');
    const malformed = await h.request('POST', '/api/auth/device/code', { token: null, rawBody: '{"client_id":', headers: { 'content-type': 'application/json' } });
    expect([malformed.status, malformed.body['code']]).toEqual([400, 'BAD_REQUEST']);
    expectDocumented(pairing, malformed);
    const text = await h.request('POST', '/api/auth/device/code', { token: null, rawBody: 'client_id=cli', headers: { 'content-type': 'text/plain' } });
    expect([text.status, text.body['code']]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expectDocumented(pairing, text);
    const large = await h.request('POST', '/api/auth/device/code', { token: null, rawBody: `client_id=${'x'.repeat(1024 * 1024)}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([large.status, large.body['code']]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expectDocumented(pairing, large);

    const me = await h.get('/api/agent/me', TOKENS.reader);
    expect(me.status).toBe(200);
  });
});
