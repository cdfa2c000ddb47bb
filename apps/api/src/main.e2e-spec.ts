import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, startBuiltService, stopBuiltService } from './test-support/built-service';

describe('the service started as a user starts it', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-e2e-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates the demo brand with keys shown once, sends and reads back, keeps the journal through a crash, and keeps a second service off its data folder', async () => {
    const first = await startBuiltService({ BRANDWIRE_DATA_DIR: dataDir });
    const writer = /BrandWrite key:\s+(\S+)/.exec(first.output())?.[1];
    expect(/Admin key:\s+bw_\S+/.test(first.output())).toBe(true);
    expect(writer).toMatch(/^bw_/);
    const token = writer as string;

    const wrote = await callJson(`${first.url}/sandbox/customers/demo-customer/messages`, token, 'POST', { brandKey: 'demo-kakao', text: 'hello there' });
    expect(wrote['ok']).toBe(true);
    const sent = await callJson(`${first.url}/api/agent/send`, token, 'POST', { brandKey: 'demo-kakao', userKey: 'demo-customer', text: 'Hi! How can I help?' });
    expect(sent).toMatchObject({ ok: true, code: '0', message: null });
    // A crash right after ok:true must not lose the journal item.
    expect(await stopBuiltService(first.child, 'SIGKILL')).toBe('SIGKILL');

    const second = await startBuiltService({ BRANDWIRE_DATA_DIR: dataDir });
    try {
      expect(second.output()).not.toContain('BrandWrite key');
      const read = await callJson(`${second.url}/api/agent/rooms/demo-customer/messages?brand=demo-kakao`, token, 'GET');
      const messages = read['messages'] as Array<{ kind: string; text: string; serial?: string }>;
      expect(messages.map((m) => [m.kind, m.text])).toEqual([
        ['agent', 'Hi! How can I help?'],
        ['message', 'hello there'],
        ['reference', 'Consultation started'],
      ]);
      expect(messages[0]?.serial).toBe(sent['serial']);

      // one service per data folder: a second one on it stops at once and says which service holds it
      const refused = startBuiltService({ BRANDWIRE_DATA_DIR: dataDir });
      await expect(refused).rejects.toThrow(`service exited with 1:\nbrandwire: the data folder ${dataDir} is in use by another Brandwire service (pid ${second.child.pid})`);
      expect((await callJson(`${second.url}/healthz`, token, 'GET'))['ok']).toBe(true);
    } finally {
      expect(await stopBuiltService(second.child)).toBe(0);
    }
  }, 60_000);
});

describe('the service started on a PostgreSQL database it cannot reach', () => {
  it('stops at once with a message naming DATABASE_URL (its password hidden), not a stack trace', async () => {
    const refused = startBuiltService({ DATABASE_URL: 'postgres://agent:s3cret@127.0.0.1:9/brandwire' });
    await expect(refused).rejects.toThrow(/^service exited with 1:\nbrandwire: cannot connect to the PostgreSQL database of DATABASE_URL \(postgres:\/\/agent:\*\*\*@127\.0\.0\.1:9\/brandwire\): connect ECONNREFUSED 127\.0\.0\.1:9\n$/);
  }, 30_000);
});
