import { senderKeyOf } from '@brandwire/upstream';
import { ServiceHarness, TOKENS } from '../test-support/service-harness';

const SETTINGS_PATHS = [
  '/api/agent/settings/plan',
  '/api/agent/settings/profile',
  '/api/agent/settings/chat',
  '/api/agent/settings/chat/activate',
  '/api/agent/settings/chat/deactivate',
  '/api/agent/settings/schedule',
  '/api/agent/settings/system-messages',
];

interface Operation {
  tags?: string[];
  summary?: string;
  responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
}

describe('settings (all of /api/agent/settings)', () => {
  let h: ServiceHarness;
  const used = async () => (await h.get<{ used: number }>('/api/agent/settings/plan?brand=acme-kakao', TOKENS.reader)).body.used;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('are never billed, while a send in the same consultation is', async () => {
    await h.customerWrites('billing-check', { text: 'hi' });
    const admin = TOKENS.admin;
    const schedule = { timeZone: 'UTC', weekly: { mon: [{ start: '00:00', end: '24:00' }] } };
    for (const read of ['profile', 'chat', 'schedule', 'system-messages', 'plan']) {
      expect((await h.get(`/api/agent/settings/${read}?brand=acme-kakao`, admin)).status).toBe(200);
    }
    expect((await h.post('/api/agent/settings/chat/deactivate', { brandKey: 'acme-kakao' }, admin)).body).toMatchObject({ ok: true });
    expect((await h.post('/api/agent/settings/chat/activate', { brandKey: 'acme-kakao' }, admin)).body).toMatchObject({ ok: true });
    expect((await h.request('PUT', '/api/agent/settings/schedule', { token: admin, body: { brandKey: 'acme-kakao', schedule } })).status).toBe(200);
    expect((await h.request('PUT', '/api/agent/settings/schedule', { token: admin, body: { brandKey: 'acme-kakao', schedule: null } })).status).toBe(200);
    expect(await used()).toBe(0);

    expect((await h.post<{ ok: boolean }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'billing-check', text: 'hello' })).body.ok).toBe(true);
    expect(await used()).toBe(1);
  });

  it('are documented in the OpenAPI document under the settings tag, each with a summary and a response type', async () => {
    const doc = await h.get<{ paths: Record<string, Record<string, Operation>> }>('/api/docs-json', null);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(SETTINGS_PATHS));
    const operations = SETTINGS_PATHS.flatMap((p) => Object.entries(doc.body.paths[p] ?? {}).map(([method, op]) => ({ route: `${method.toUpperCase()} ${p}`, op })));
    expect(operations.map((o) => o.route).sort()).toEqual(
      [
        'GET /api/agent/settings/chat',
        'GET /api/agent/settings/plan',
        'GET /api/agent/settings/profile',
        'GET /api/agent/settings/schedule',
        'GET /api/agent/settings/system-messages',
        'POST /api/agent/settings/chat/activate',
        'POST /api/agent/settings/chat/deactivate',
        'PUT /api/agent/settings/plan',
        'PUT /api/agent/settings/schedule',
      ].sort(),
    );
    for (const { route, op } of operations) {
      expect({ route, tags: op.tags, summary: typeof op.summary }).toEqual({ route, tags: ['settings'], summary: 'string' });
      expect({ route, schema: op.responses['200']?.content?.['application/json']?.schema?.$ref }).toEqual({ route, schema: expect.stringMatching(/ResponseDto$/) });
    }
  });

  it('survive a restart: a new sandbox messenger gets the stored chat state and hours', async () => {
    const admin = TOKENS.admin;
    const schedule = { timeZone: 'UTC', weekly: { sat: [{ start: '10:00', end: '14:00' }] } };
    await h.post('/api/agent/settings/chat/deactivate', { brandKey: 'acme-naver' }, admin);
    await h.request('PUT', '/api/agent/settings/schedule', { token: admin, body: { brandKey: 'acme-naver', schedule } });

    // the service starts again on the same data with its own, fresh sandbox messenger
    await h.restart();
    const control = h.service.runtime.sandbox?.control;
    if (!control) throw new Error('expected the sandbox messenger');
    const naver = await control.channel(senderKeyOf('acme-naver'));
    expect(naver).toMatchObject({ ok: true, active: false, type: 'naver', schedule: { timeZone: 'UTC', weekly: { sat: [{ start: '10:00', end: '14:00' }], sun: [] } } });
    expect(await control.channel(senderKeyOf('acme-kakao'))).toMatchObject({ ok: true, active: true, type: 'kakao', chatbotBuilder: true, schedule: null });
  });
});
