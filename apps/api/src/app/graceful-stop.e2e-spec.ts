import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SandboxControlClient, type SandboxMessenger, ShiftableClock, senderKeyOf, startSandboxMessenger } from '@brandwire/upstream';
import { type BuiltService, startBuiltService, stopBuiltService } from '../test-support/built-service';
import { TEST_SEED, TOKENS } from '../test-support/service-harness';

const PARTNER_KEY = 'graceful-stop-partner-key';
const CUSTOMERS = Array.from({ length: 10 }, (_, i) => `g${i}`);

describe('a stop (SIGTERM) while agents send over kept-alive connections', () => {
  const dir = mkdtempSync(join(tmpdir(), 'brandwire-stop-'));
  let sandbox: SandboxMessenger;
  let control: SandboxControlClient;
  let env: Record<string, string>;
  const started: BuiltService[] = [];

  beforeAll(async () => {
    // the messenger outlives the service, as it does in production: what the customers saw can be compared after
    sandbox = await startSandboxMessenger({ port: 0, partnerKey: PARTNER_KEY, clock: new ShiftableClock(), attachmentHost: 'cdn.test.invalid' });
    control = new SandboxControlClient({ baseUrl: sandbox.url, partnerKey: PARTNER_KEY });
    const seed = join(dir, 'seed.json');
    writeFileSync(seed, JSON.stringify(TEST_SEED));
    env = { UPSTREAM_URL: sandbox.url, UPSTREAM_PARTNER_KEY: PARTNER_KEY, BRANDWIRE_SEED: seed, BRANDWIRE_DATA_DIR: join(dir, 'data') };
  }, 60_000);

  afterAll(async () => {
    for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) await stopBuiltService(s.child, 'SIGKILL');
    control.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers the sends in flight, then exits 0 at once; every bubble a customer received is in the journal', async () => {
    const first = await startBuiltService(env);
    started.push(first);
    const senderKey = senderKeyOf('acme-kakao');
    for (const userKey of CUSTOMERS) expect((await control.customerMessage(userKey, { senderKey, text: `hello from ${userKey}` })).ok).toBe(true);

    const accepted: string[] = [];
    const failures: string[] = [];
    let refusedConnections = 0;
    let stopping = false;
    // each agent sends one message after another on its kept-alive connection until the service is gone
    const agent = async (userKey: string) => {
      for (let i = 0; ; i++) {
        let response: Response;
        try {
          response = await fetch(`${first.url}/api/agent/send`, {
            method: 'POST',
            headers: { authorization: `Bearer ${TOKENS.writer}`, 'content-type': 'application/json' },
            body: JSON.stringify({ brandKey: 'acme-kakao', userKey, text: `${userKey} message ${i}` }),
          });
        } catch (error) {
          // once the service stops listening, a new connection is refused: that, and only that, ends an agent
          const code = (error as { cause?: { code?: string } }).cause?.code;
          if (stopping && code === 'ECONNREFUSED') refusedConnections += 1;
          else failures.push(`${userKey} message ${i}: ${String(error)} (${String(code)})`);
          return;
        }
        const text = await response.text();
        const reply = JSON.parse(text) as { ok?: boolean; serial?: string };
        if (response.status !== 200 || reply.ok !== true || reply.serial === undefined) failures.push(`${userKey} message ${i}: HTTP ${response.status} ${text}`);
        else accepted.push(reply.serial);
      }
    };
    const agents = Promise.all(CUSTOMERS.map(agent));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const before = accepted.length;
    stopping = true;
    const stopAt = Date.now();
    const exit = await stopBuiltService(first.child, 'SIGTERM');
    const stopMs = Date.now() - stopAt;
    await agents;

    expect(before).toBeGreaterThan(0);
    expect(failures).toEqual([]);
    expect(exit).toBe(0);
    expect(stopMs).toBeLessThan(5_000);
    expect(first.output()).not.toContain('not closed within');
    expect(refusedConnections).toBe(CUSTOMERS.length);

    const second = await startBuiltService(env);
    started.push(second);
    const journaled = new Set<string>();
    const delivered: string[] = [];
    for (const userKey of CUSTOMERS) {
      const room = await fetch(`${second.url}/api/agent/rooms/${userKey}/messages?brand=acme-kakao&max=300`, { headers: { authorization: `Bearer ${TOKENS.writer}` } });
      const body = (await room.json()) as { messages: Array<{ kind: string; serial?: string }> };
      for (const item of body.messages) if (item.kind === 'agent' && item.serial) journaled.add(item.serial);
      const chat = await control.chat(userKey, senderKey);
      if (!chat.ok) throw new Error(`no chat for ${userKey}`);
      for (const bubble of chat.bubbles) if (bubble.from === 'agent') delivered.push(bubble.serial);
    }
    expect(accepted.filter((serial) => !journaled.has(serial))).toEqual([]);
    expect(delivered.filter((serial) => !journaled.has(serial))).toEqual([]);
    expect(await stopBuiltService(second.child, 'SIGTERM')).toBe(0);
  }, 90_000);
});
