import { ShiftableClock, type SandboxMessenger, startSandboxMessenger } from '@brandwire/upstream';
import { ServiceHarness, TOKENS } from '../test-support/service-harness';

interface MessagesReply {
  messages: Array<{ kind: string; text: string; serial?: string; timestampUnixMs: number }>;
}

async function sendAndReadBack(h: ServiceHarness, userKey: string): Promise<void> {
  await h.customerWrites(userKey, { text: 'hello from the customer' });
  const sent = await h.post<{ ok: boolean; serial: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey, text: 'hello from the agent' });
  expect(sent.body.ok).toBe(true);
  const read = await h.get<MessagesReply>(`/api/agent/rooms/${userKey}/messages?brand=acme-kakao`, TOKENS.reader);
  expect(read.body.messages.map((m) => [m.kind, m.text, m.serial])).toEqual([
    ['agent', 'hello from the agent', sent.body.serial],
    ['message', 'hello from the customer', undefined],
    ['reference', 'Consultation started', undefined],
  ]);
}

describe('the service on PostgreSQL (DATABASE_URL)', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start({ dialect: 'postgres' });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('reports its storage and sends and reads back through the same API', async () => {
    expect((await h.get('/healthz', null)).body).toEqual({ ok: true, storage: 'postgres' });
    await sendAndReadBack(h, 'pg-user');
  });
});

describe('the service with a separately running sandbox messenger (UPSTREAM_URL)', () => {
  const clock = new ShiftableClock(5 * 24 * 3600 * 1000);
  let sandbox: SandboxMessenger;
  let h: ServiceHarness;

  beforeAll(async () => {
    sandbox = await startSandboxMessenger({ port: 0, partnerKey: 'separate-partner-key', clock, attachmentHost: 'cdn.test.invalid' });
    h = await ServiceHarness.start({ env: { UPSTREAM_URL: sandbox.url, UPSTREAM_PARTNER_KEY: 'separate-partner-key' } });
  });
  afterAll(async () => {
    await h.stop();
    await sandbox.close();
  });

  it('talks to it over HTTP and offers the sandbox control API', async () => {
    await sendAndReadBack(h, 'remote-user');
  });

  it("adopts the sandbox's clock and follows it when the clock is moved", async () => {
    const before = await h.get<MessagesReply>('/api/agent/rooms/remote-user/messages?brand=acme-kakao');
    expect(before.body.messages[0]?.timestampUnixMs).toBeGreaterThan(Date.now() + 4 * 24 * 3600 * 1000);
    const moved = await h.post<{ ok: boolean; now: number }>('/sandbox/clock', { advanceSeconds: 3600 });
    expect(moved.body.now).toBeGreaterThan(Date.now() + 5 * 24 * 3600 * 1000 + 3500 * 1000);
    await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'remote-user', text: 'an hour later' });
    const after = await h.get<MessagesReply>('/api/agent/rooms/remote-user/messages?brand=acme-kakao');
    expect(Math.abs((after.body.messages[0]?.timestampUnixMs ?? 0) - clock.now())).toBeLessThan(5_000);
  });

  it("follows the sandbox's clock moved through another instance within seconds", async () => {
    // what another instance's POST /sandbox/clock does to the shared sandbox
    clock.advance(2 * 3600 * 1000);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'remote-user', text: 'two hours later' });
    const after = await h.get<MessagesReply>('/api/agent/rooms/remote-user/messages?brand=acme-kakao');
    expect(Math.abs((after.body.messages[0]?.timestampUnixMs ?? 0) - clock.now())).toBeLessThan(5_000);
  });

  it('registers its callback url and channels again with a sandbox that started again empty (it crashed)', async () => {
    const port = Number(new URL(sandbox.url).port);
    await sandbox.close();
    sandbox = await startSandboxMessenger({ port, partnerKey: 'separate-partner-key', clock, attachmentHost: 'cdn.test.invalid' });
    // the service notices the new sandbox within a second, then registers again
    const deadline = Date.now() + 10_000;
    let wrote = await h.post<{ ok: boolean; seq: number }>('/sandbox/customers/after-crash/messages', { brandKey: 'acme-kakao', text: 'anyone there?' });
    while (!wrote.body.ok && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      wrote = await h.post<{ ok: boolean; seq: number }>('/sandbox/customers/after-crash/messages', { brandKey: 'acme-kakao', text: 'anyone there?' });
    }
    expect(wrote.body).toMatchObject({ ok: true, seq: expect.any(Number) });
    const sent = await h.post<{ ok: boolean; code: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'after-crash', text: 'yes' });
    expect(sent.body).toMatchObject({ ok: true, code: '0' });
  });
});

describe('the service with an unreachable messenger', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start({ env: { UPSTREAM_URL: 'http://127.0.0.1:9', UPSTREAM_PARTNER_KEY: 'k' } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('answers a send with 502 UPSTREAM_UNAVAILABLE in the envelope, and has no sandbox routes', async () => {
    const reply = await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'u', text: 'hi' });
    expect(reply.status).toBe(502);
    expect(reply.body).toEqual({ ok: false, code: 'UPSTREAM_UNAVAILABLE', message: expect.stringContaining('messenger') });
    expect((await h.post('/sandbox/clock', { advanceSeconds: 1 })).body).toMatchObject({ ok: false, code: 'NO_ROUTE' });
  });
});

describe('the service with SQLite on the event loop thread (SQLITE_THREAD=0)', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start({ env: { SQLITE_THREAD: '0' } });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('sends and reads back through the same API', async () => {
    expect((await h.get('/healthz', null)).body).toEqual({ ok: true, storage: 'sqlite' });
    await sendAndReadBack(h, 'same-thread-user');
  });
});

describe('the service restarted on the same data folder (SQLite, in-process sandbox)', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('finds the consultations, chats and clock of the sandbox messenger as it left them', async () => {
    await h.customerWrites('restart-user', { text: 'hello before the restart' });
    const before = await h.post<{ ok: boolean; serial: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'restart-user', text: 'answered before' });
    expect(before.body.ok).toBe(true);
    const moved = await h.post<{ now: number }>('/sandbox/clock', { advanceSeconds: 3_600 });
    await h.restart();

    const rooms = await h.get<{ rooms: Array<{ userKey: string; ended: boolean }> }>('/api/agent/rooms?brand=acme-kakao', TOKENS.reader);
    expect(rooms.body.rooms.find((r) => r.userKey === 'restart-user')).toMatchObject({ ended: false });
    const after = await h.post<{ ok: boolean; code?: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'restart-user', text: 'answered after' });
    expect(after.body).toMatchObject({ ok: true });
    expect((await h.customerChat('restart-user')).map((b) => b.text)).toEqual(['hello before the restart', 'answered before', 'answered after']);
    expect((await h.post<{ now: number }>('/sandbox/clock', { advanceSeconds: 0 })).body.now).toBeGreaterThanOrEqual(moved.body.now);
  });
});
