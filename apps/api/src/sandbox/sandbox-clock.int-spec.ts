import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ServiceHarness } from '../test-support/service-harness';

interface ClockReply {
  ok: boolean;
  now: number;
}

interface MessagesReply {
  messages: Array<{ kind: string; text: string; timestampUnixMs: number }>;
}

describe('POST /sandbox/clock when the sandbox cannot keep its clock file', () => {
  let h: ServiceHarness;
  let clockFile: string;

  beforeAll(async () => {
    h = await ServiceHarness.start();
    clockFile = join(h.dataDir, 'sandbox', 'clock.json');
  });
  afterAll(async () => {
    rmSync(clockFile, { recursive: true, force: true });
    await h.stop();
  });

  it('answers 502 UPSTREAM_UNAVAILABLE in the envelope and moves neither clock; the next move after the fault is kept', async () => {
    const before = await h.post<ClockReply>('/sandbox/clock', { advanceSeconds: 60 });
    expect([before.status, before.body.ok]).toEqual([200, true]);
    expect(JSON.parse(readFileSync(clockFile, 'utf8'))).toEqual({ offsetMs: expect.any(Number) });
    // clock.json replaced by a directory: the sandbox can no longer write it
    rmSync(clockFile);
    mkdirSync(clockFile);
    writeFileSync(join(clockFile, 'occupied'), '');

    const failed = await h.post('/sandbox/clock', { advanceSeconds: 3600 });
    // neither the sandbox's clock nor the service's moved: a customer message is still journaled at "now"
    await h.customerWrites('clock-user', { text: 'what time is it?' });
    const read = await h.get<MessagesReply>('/api/agent/rooms/clock-user/messages?brand=acme-kakao');
    const written = read.body.messages.find((m) => m.kind === 'message');
    expect(written?.timestampUnixMs).toBeLessThan(before.body.now + 600_000);
    expect([failed.status, failed.body]).toEqual([
      502,
      {
        ok: false,
        code: 'UPSTREAM_UNAVAILABLE',
        message: `the sandbox messenger could not write clock.json (EISDIR); the clock was not moved`,
      },
    ]);

    rmSync(clockFile, { recursive: true, force: true });
    const after = await h.post<ClockReply>('/sandbox/clock', { advanceSeconds: 3600 });
    expect([after.status, after.body.ok]).toEqual([200, true]);
    expect(after.body.now - before.body.now).toBeGreaterThanOrEqual(3600_000);
    expect(after.body.now - before.body.now).toBeLessThan(3600_000 + 600_000);
    expect(existsSync(clockFile)).toBe(true);
  });
});
