import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestDatabase, postgresTestDatabase } from '@brandwire/store/testing';
import { SandboxControlClient, type SandboxMessenger, ShiftableClock, senderKeyOf, startSandboxMessenger } from '@brandwire/upstream';
import { type BuiltService, callJson, startBuiltService, stopBuiltService } from '../test-support/built-service';
import { RoundRobinProxy } from '../test-support/round-robin-proxy';
import { TEST_SEED, TOKENS } from '../test-support/service-harness';
import { WebhookReceiver } from '../test-support/webhook-receiver';

const PARTNER_KEY = 'scale-out-partner-key';
const CUSTOMERS = Array.from({ length: 12 }, (_, i) => `c${i}`);
const SENDS = 240;

describe('several API instances on one PostgreSQL', () => {
  let db: TestDatabase;
  let sandbox: SandboxMessenger;
  let control: SandboxControlClient;
  let proxy: RoundRobinProxy;
  let receiver: WebhookReceiver;
  let a: BuiltService;
  let b: BuiltService;
  const dir = mkdtempSync(join(tmpdir(), 'brandwire-scale-'));

  beforeAll(async () => {
    db = await postgresTestDatabase();
    sandbox = await startSandboxMessenger({ port: 0, partnerKey: PARTNER_KEY, clock: new ShiftableClock(), attachmentHost: 'cdn.test.invalid' });
    control = new SandboxControlClient({ baseUrl: sandbox.url, partnerKey: PARTNER_KEY });
    proxy = await RoundRobinProxy.start();
    receiver = await WebhookReceiver.start();
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, JSON.stringify(TEST_SEED));
    const env = {
      DATABASE_URL: db.databaseUrl ?? '',
      UPSTREAM_URL: sandbox.url,
      UPSTREAM_PARTNER_KEY: PARTNER_KEY,
      BRANDWIRE_SEED: seed,
      BRANDWIRE_PUBLIC_URL: proxy.url,
      BRANDWIRE_DATA_DIR: dir,
      DELIVERY_LEASE_MS: '2000',
    };
    a = await startBuiltService(env);
    b = await startBuiltService(env);
    proxy.targets.push(a.url, b.url);
  }, 60_000);

  afterAll(async () => {
    for (const instance of [a, b]) if (instance && instance.child.exitCode === null && instance.child.signalCode === null) await stopBuiltService(instance.child);
    control.close();
    await proxy.close();
    await receiver.stop();
    await sandbox.close();
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no accepted send or signal, repeats no seq, and delivers duplicates only under the same webhook-id when an instance is killed', async () => {
    const set = await callJson(`${a.url}/api/agent/settings/webhook`, TOKENS.admin, 'PUT', { brandKey: 'acme-kakao', url: receiver.url });
    expect(set['url']).toBe(receiver.url);
    const senderKey = senderKeyOf('acme-kakao');
    for (const userKey of CUSTOMERS) expect((await control.customerMessage(userKey, { senderKey, text: `hello from ${userKey}` })).ok).toBe(true);

    const accepted: Array<{ userKey: string; serial: string }> = [];
    let killed = false;
    const sendOne = async (i: number) => {
      const target = i % 2 === 0 || killed ? a : b;
      const userKey = CUSTOMERS[i % CUSTOMERS.length] ?? 'c0';
      try {
        const reply = await callJson(`${target.url}/api/agent/send`, TOKENS.writer, 'POST', { brandKey: 'acme-kakao', userKey, text: `message ${i}` });
        if (reply['ok'] === true) accepted.push({ userKey, serial: String(reply['serial']) });
      } catch {
        // the killed instance: no answer, so nothing was promised
      }
    };
    const customersKeepWriting = (async () => {
      for (let round = 0; round < 3; round += 1) {
        for (const userKey of CUSTOMERS) await control.customerMessage(userKey, { senderKey, text: `more from ${userKey}` });
      }
    })();
    const batches = async (from: number, to: number) => {
      for (let start = from; start < to; start += 20) await Promise.all(Array.from({ length: 20 }, (_, k) => sendOne(start + k)));
    };
    await batches(0, SENDS / 2);
    // Kill one instance while sends to it are in flight.
    const inFlight = Promise.all(Array.from({ length: 20 }, (_, k) => sendOne(SENDS / 2 + k)));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const killedBy = stopBuiltService(b.child, 'SIGKILL');
    killed = true;
    await inFlight;
    await batches(SENDS / 2 + 20, SENDS);
    expect(await killedBy).toBe('SIGKILL');
    await customersKeepWriting;
    expect(accepted.length).toBeGreaterThan(SENDS / 2);

    // Every ok:true send has its journal item, and no seq repeats.
    const seqs: number[] = [];
    for (const userKey of CUSTOMERS) {
      const read = await callJson(`${a.url}/api/agent/rooms/${userKey}/messages?brand=acme-kakao&max=300`, TOKENS.reader, 'GET');
      const items = read['messages'] as Array<{ seq: number; serial?: string }>;
      seqs.push(...items.map((m) => m.seq));
      const journaled = new Set(items.map((m) => m.serial));
      for (const send of accepted.filter((s) => s.userKey === userKey)) expect(journaled.has(send.serial)).toBe(true);
    }
    expect(new Set(seqs).size).toBe(seqs.length);

    // Every signal reaches the receiver; repeated deliveries carry the same webhook-id and body.
    const all = (await callJson(`${a.url}/api/agent/signals?brand=acme-kakao&max=1000`, TOKENS.reader, 'GET'))['signals'] as Array<{ id: string }>;
    const wanted = all.map((s) => `sig_acme-kakao_${s.id.replace('.', '_')}`);
    await receiver.waitFor((got) => {
      const ids = new Set(got.map((d) => String(d.headers['webhook-id'])));
      return wanted.every((id) => ids.has(id));
    }, 60_000);
    const bodies = new Map<string, string>();
    const differentUnderSameId: string[] = [];
    for (const delivery of receiver.accepted) {
      const id = String(delivery.headers['webhook-id']);
      const seen = bodies.get(id);
      if (seen !== undefined && seen !== delivery.body) differentUnderSameId.push(id);
      bodies.set(id, delivery.body);
    }
    expect(differentUnderSameId).toEqual([]);
    const signalIds = all.map((s) => s.id);
    expect(new Set(signalIds).size).toBe(signalIds.length);
  }, 120_000);
});
