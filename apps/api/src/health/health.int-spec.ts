import { ServiceHarness } from '../test-support/service-harness';

describe('health and API documentation', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers /healthz without a key', async () => {
    const reply = await h.get('/healthz', null);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true, storage: 'sqlite' });
  });

  it('serves the OpenAPI document generated from the controllers, and its UI', async () => {
    const doc = await h.get<{ openapi: string; paths: Record<string, unknown> }>('/api/docs-json', null);
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/agent/send',
        '/api/agent/rooms',
        '/api/agent/rooms/{userKey}/messages',
        '/api/agent/conversations',
        '/api/agent/conversation',
        '/api/agent/me',
        '/healthz',
      ]),
    );
    expect(Object.keys(doc.body.paths).some((p) => p.startsWith('/upstream'))).toBe(false);
    const ui = await h.request('GET', '/api/docs', { token: null });
    expect(ui.status).toBe(200);
    expect(ui.text).toContain('swagger');
  });
});
