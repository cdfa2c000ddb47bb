import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestDatabase, testDatabase } from '@brandwire/store/testing';
import { Logger } from '@nestjs/common';
import { type RunningService, startService } from '../app/start-service';
import { loadConfig } from '../config/config';
import { ServiceHarness, TEST_SEED, TOKENS } from '../test-support/service-harness';
import { WebhookReceiver } from '../test-support/webhook-receiver';
import { HeldConsents } from './held-consents';
import { PersonalInfoRelay } from './personal-info-relay.service';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const setWebhook = (h: ServiceHarness, brandKey: string, url: string | null) => h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey, url } });

/** A service whose acme-kakao channel delivers to a receiver of the test's, for the tests of a describe. */
function serviceWithReceiver(): { h: ServiceHarness; receiver: WebhookReceiver } {
  const started = {} as { h: ServiceHarness; receiver: WebhookReceiver };
  beforeAll(async () => {
    started.h = await ServiceHarness.start();
    started.receiver = await WebhookReceiver.start();
    expect((await setWebhook(started.h, 'acme-kakao', started.receiver.url)).status).toBe(200);
  });
  afterAll(async () => {
    await started.h.stop();
    await started.receiver.stop();
  });
  return started;
}

describe('deliveries to a channel whose receiver hangs', () => {
  let h: ServiceHarness;
  let hanging: WebhookReceiver;
  let healthy: WebhookReceiver;

  beforeAll(async () => {
    h = await ServiceHarness.start();
    [hanging, healthy] = await Promise.all([WebhookReceiver.start(), WebhookReceiver.start()]);
    expect((await setWebhook(h, 'acme-kakao', hanging.url)).status).toBe(200);
    expect((await setWebhook(h, 'acme-naver', healthy.url)).status).toBe(200);
  });
  afterAll(async () => {
    await h.stop();
    await Promise.all([hanging.stop(), healthy.stop()]);
  });

  it("do not hold up another channel's signals: they arrive within seconds, not after the 10 s timeout", async () => {
    // longer than the 10 s delivery timeout: the attempt hangs until the sender gives up on it
    hanging.answerDelayMs = 11_000;
    try {
      await h.customerWrites('hang-a', { text: 'to a receiver that hangs' }, 'acme-kakao');
      const deadline = Date.now() + 5_000;
      while (!hanging.received.some((d) => d.json['userKey'] === 'hang-a') && Date.now() < deadline) await pause(20);
      expect(hanging.received.some((d) => d.json['userKey'] === 'hang-a')).toBe(true);

      const writtenAt = Date.now();
      await h.customerWrites('free-b', { text: 'to a receiver that answers' }, 'acme-naver');
      await healthy.waitFor((a) => a.some((d) => d.json['userKey'] === 'free-b' && d.json['kind'] === 'message'), 9_000);
      expect(Date.now() - writtenAt).toBeLessThan(3_000);
      // the hanging channel's attempt is still under way meanwhile
      expect(hanging.received.filter((d) => d.json['userKey'] === 'hang-a' && d.answeredAtMs !== undefined)).toEqual([]);
    } finally {
      hanging.answerDelayMs = 0;
    }
    // and its own signals follow in order once its receiver answers again (the attempt that hung is retried)
    await hanging.waitFor((a) => a.some((d) => d.json['userKey'] === 'hang-a' && d.json['kind'] === 'message'), 25_000);
    const ids = hanging.received.filter((d) => d.json['userKey'] === 'hang-a').map((d) => String(d.headers['webhook-id']));
    expect([...new Set(ids)]).toEqual(['sig_acme-kakao_1_0', 'sig_acme-kakao_2_0']);
  }, 40_000);
});

describe("a consent result held in memory and the customer's later signals", () => {
  const service = serviceWithReceiver();

  it('keeps the customer’s seq order: a later message waits behind the held consent values', async () => {
    service.receiver.status = 503;
    try {
      await service.h.customerWrites('held-order', { text: 'you may call me' });
      expect((await service.h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'held-order' })).body).toMatchObject({ ok: true });
      await service.h.post('/sandbox/customers/held-order/consent', { brandKey: 'acme-kakao', nickname: 'Jun', phoneNumber: '010-7777-8888' });
      await service.h.customerWrites('held-order', { text: 'written after the consent' });
      await pause(2_000);
    } finally {
      service.receiver.status = 200;
    }
    const of = () => service.receiver.accepted.filter((d) => d.json['userKey'] === 'held-order');
    await service.receiver.waitFor(() => of().some((d) => d.json['kind'] === 'personal_info') && of().filter((d) => d.json['kind'] === 'message').length >= 2, 20_000);
    expect(of().map((d) => d.json['kind'])).toEqual(['reference', 'message', 'agent', 'agent', 'personal_info', 'message']);
    const seqs = of().map((d) => Number(d.json['seq']));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  }, 40_000);
});

/** A webhook receiver that refuses (500) the signals of one customer and takes (200) everyone else's, recording each attempt. */
async function startPickyReceiver(refusedUserKey: string): Promise<{ url: string; attempts: Array<{ id: string; userKey: unknown; atMs: number }>; close(): Promise<void> }> {
  const attempts: Array<{ id: string; userKey: unknown; atMs: number }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const userKey = (JSON.parse(body) as Record<string, unknown>)['userKey'];
      attempts.push({ id: String(req.headers['webhook-id']), userKey, atMs: Date.now() });
      res.writeHead(userKey === refusedUserKey ? 500 : 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    attempts,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe("a receiver that refuses one customer's signals while it takes the others'", () => {
  let h: ServiceHarness;
  let receiver: Awaited<ReturnType<typeof startPickyReceiver>>;

  beforeAll(async () => {
    h = await ServiceHarness.start();
    receiver = await startPickyReceiver('refused-one');
    expect((await setWebhook(h, 'acme-kakao', receiver.url)).status).toBe(200);
  });
  afterAll(async () => {
    await h.stop();
    await receiver.close();
  });

  it('gets the refused signal again on its back-off (1 s, then 2 s), not at every round the others are delivered in', async () => {
    await h.customerWrites('refused-one', { text: 'refused every time' });
    const deadline = Date.now() + 5_000;
    while (!receiver.attempts.some((a) => a.userKey === 'refused-one') && Date.now() < deadline) await pause(10);
    const first = receiver.attempts.find((a) => a.userKey === 'refused-one');
    expect(first).toBeDefined();
    // other customers write all along: their rounds deliver, many a second
    const until = (first?.atMs ?? 0) + 2_500;
    await Promise.all(
      [0, 1, 2, 3].map(async (c) => {
        for (let n = 0; Date.now() < until; n += 1) await h.customerWrites(`taken-${c}`, { text: `taken ${n}` });
      }),
    );
    const refused = receiver.attempts.filter((a) => a.id === first?.id && a.atMs <= until);
    const taken = receiver.attempts.filter((a) => String(a.userKey).startsWith('taken-'));
    expect(taken.length).toBeGreaterThan(10);
    // the first attempt, its retry after about 1 s, and one about 2 s after that (it may fall within the 2.5 s)
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeLessThanOrEqual(3);
    // each retry after its back-off (1 s and 2 s, ±20 %), never sooner
    const gaps = refused.slice(1).map((a, i) => a.atMs - (refused[i]?.atMs ?? 0));
    gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(0.8 * 1_000 * 2 ** i - 50));
  }, 30_000);
});

/** A messenger that is not the sandbox: no control API (404), and every partner call refused. */
async function startPlainMessenger(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/_sandbox')) res.writeHead(404).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: -501, message: 'InvalidSenderException' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('a webhook URL stored while the sandbox was the upstream, after a restart with a real messenger', () => {
  let database: TestDatabase;
  let seedDir: string;
  let receiver: WebhookReceiver;
  let messenger: Awaited<ReturnType<typeof startPlainMessenger>>;
  const running: RunningService[] = [];

  const start = async (env: Record<string, string>) => {
    const service = await startService(
      loadConfig({ PORT: '0', BRANDWIRE_DATA_DIR: database.dataDir, BRANDWIRE_SEED: join(seedDir, 'seed.json'), LOG_LEVEL: 'silent', ...env }),
    );
    running.push(service);
    return service;
  };
  const call = async (service: RunningService, method: string, path: string, body: unknown, token: string = TOKENS.admin) => {
    const response = await fetch(`${service.url}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    database = await testDatabase('sqlite');
    seedDir = mkdtempSync(join(tmpdir(), 'brandwire-seed-'));
    writeFileSync(join(seedDir, 'seed.json'), JSON.stringify(TEST_SEED));
    receiver = await WebhookReceiver.start();
    messenger = await startPlainMessenger();
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    for (const service of running.splice(0)) await service.close().catch(() => undefined);
    await Promise.all([receiver.stop(), messenger.close()]);
    await database.drop();
    rmSync(seedDir, { recursive: true, force: true });
  });

  it('is refused at delivery time as PUT refuses it: nothing reaches it, the signals stay pending, one log line says why', async () => {
    const sandboxed = await start({});
    expect((await call(sandboxed, 'PUT', '/api/agent/settings/webhook', { brandKey: 'acme-kakao', url: receiver.url })).status).toBe(200);
    receiver.status = 503;
    expect((await call(sandboxed, 'POST', '/sandbox/customers/stale-url/messages', { brandKey: 'acme-kakao', text: 'before the restart' })).body).toMatchObject({ ok: true });
    const deadline = Date.now() + 5_000;
    while (!receiver.received.some((d) => d.json['userKey'] === 'stale-url') && Date.now() < deadline) await pause(20);
    expect(receiver.received.some((d) => d.json['userKey'] === 'stale-url')).toBe(true);
    await sandboxed.close();
    running.splice(running.indexOf(sandboxed), 1);

    const warn = jest.spyOn(Logger.prototype, 'warn');
    const real = await start({ UPSTREAM_URL: messenger.url, UPSTREAM_PARTNER_KEY: 'k' });
    receiver.status = 200;
    const hitsAtRestart = receiver.received.length;
    // its retries were due after 1 s, 2 s, 4 s
    await pause(5_000);
    expect(receiver.received.length).toBe(hitsAtRestart);
    const pending = await real.runtime.store.signals.pending('acme-kakao', 100);
    expect(pending.filter((s) => s.userKey === 'stale-url').map((s) => s.payload.kind)).toEqual(['reference', 'message']);
    const refusedLines = warn.mock.calls.map((c) => String(c[0])).filter((line) => line.includes('acme-kakao') && line.includes('must be https'));
    expect(refusedLines).toHaveLength(1);

    // a consent result for it is dropped at once, not held for a turn that never comes (its earlier signals are
    // never sent to the refused URL), nor are the customer's later signals held behind it
    const channel = await real.runtime.store.directory.findChannel('acme-kakao');
    if (!channel) throw new Error('no acme-kakao channel');
    await real.app.get(PersonalInfoRelay).relay(channel, 'stale-url', { nickname: 'Min', phoneNumber: '010-1234-5678' });
    const consents = real.app.get(HeldConsents);
    expect(consents.firstHeld('acme-kakao', 'stale-url')).toBeDefined();
    const dropped = () => warn.mock.calls.map((c) => String(c[0])).find((line) => line.includes('consent signal seq') && line.includes('webhook URL not allowed'));
    const heldUntil = Date.now() + 2_000;
    while ((consents.firstHeld('acme-kakao', 'stale-url') !== undefined || !dropped()) && Date.now() < heldUntil) await pause(20);
    expect(consents.firstHeld('acme-kakao', 'stale-url')).toBeUndefined();
    expect(dropped()).toBeDefined();
    expect(receiver.received.length).toBe(hitsAtRestart);

    // the same URL is refused by PUT now, with the same reason
    const again = await call(real, 'PUT', '/api/agent/settings/webhook', { brandKey: 'acme-kakao', url: receiver.url });
    expect([again.status, again.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'url is not allowed for webhooks: the URL must be https' }]);
  }, 40_000);
});

describe('the log line of a failed delivery when the sandbox clock was moved', () => {
  const service = serviceWithReceiver();
  afterAll(() => jest.restoreAllMocks());

  it('tells the retry time in wall-clock time, not in the sandbox clock’s', async () => {
    expect((await service.h.post('/sandbox/clock', { advanceSeconds: 30 * 24 * 3600 })).status).toBe(200);
    const warn = jest.spyOn(Logger.prototype, 'warn');
    service.receiver.status = 503;
    try {
      await service.h.customerWrites('moved-clock', { text: 'fails' });
      const failureLine = () => warn.mock.calls.map((c) => String(c[0])).find((line) => line.includes('delivery failed'));
      const deadline = Date.now() + 5_000;
      while (!failureLine() && Date.now() < deadline) await pause(20);
      const line = failureLine() ?? '';
      const times = [...line.matchAll(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g)].map((m) => Date.parse(m[0]));
      expect(times.length).toBeGreaterThan(0);
      for (const at of times) expect(Math.abs(at - Date.now())).toBeLessThan(60_000);
    } finally {
      service.receiver.status = 200;
    }
  });
});
