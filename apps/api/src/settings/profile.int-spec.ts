import { senderKeyOf } from '@brandwire/upstream';
import { ServiceHarness, TOKENS } from '../test-support/service-harness';

describe('sender profile (/api/agent/settings/profile)', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it("shows the channel's sender profile to any key of the brand", async () => {
    for (const token of [TOKENS.reader, TOKENS.writer, TOKENS.admin]) {
      const reply = await h.get('/api/agent/settings/profile?brand=acme-kakao', token);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({
        ok: true,
        brand: 'acme-kakao',
        profile: { senderKey: senderKeyOf('acme-kakao'), name: 'Acme Kakao', brandId: 'acme', type: 'kakao', chatbotBuilder: true, status: 'active' },
      });
    }
    const naver = await h.get<{ profile: Record<string, unknown> }>('/api/agent/settings/profile?brand=acme-naver', TOKENS.reader);
    expect(naver.body.profile).toMatchObject({ name: 'Acme Naver', type: 'naver', chatbotBuilder: false, status: 'active' });
  });

  it('refuses a key of another brand and an unknown brand alike (403), and a missing brand (400)', async () => {
    const other = await h.get('/api/agent/settings/profile?brand=acme-kakao', TOKENS.otherBrand);
    expect(other.status).toBe(403);
    expect(other.body).toMatchObject({ ok: false, code: 'FORBIDDEN', message: expect.stringContaining('brand "acme-kakao"') });
    const unknown = await h.get('/api/agent/settings/profile?brand=nope', TOKENS.reader);
    expect(unknown.status).toBe(403);
    expect(unknown.body).toMatchObject({ ok: false, code: 'FORBIDDEN', message: expect.stringContaining('brand "nope"') });
    const missing = await h.get('/api/agent/settings/profile', TOKENS.reader);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('brand') });
    const anonymous = await h.get('/api/agent/settings/profile?brand=acme-kakao', null);
    expect(anonymous.status).toBe(401);
  });

  it('shows status inactive while chat is deactivated', async () => {
    await h.post('/api/agent/settings/chat/deactivate', { brandKey: 'acme-naver' }, TOKENS.admin);
    const off = await h.get<{ profile: { status: string } }>('/api/agent/settings/profile?brand=acme-naver', TOKENS.reader);
    expect(off.body.profile.status).toBe('inactive');
    await h.post('/api/agent/settings/chat/activate', { brandKey: 'acme-naver' }, TOKENS.admin);
    const on = await h.get<{ profile: { status: string } }>('/api/agent/settings/profile?brand=acme-naver', TOKENS.reader);
    expect(on.body.profile.status).toBe('active');
  });
});
