import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

describe('the service started with a bad setting', () => {
  it.each([
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "loud"'],
    [{ JSON_BODY_LIMIT: 'huge' }, 'JSON_BODY_LIMIT must be a size such as 1mb, 512kb or 100000 (bytes), got "huge"'],
    [{ ATTACHMENT_HOST: 'https://cdn.example.com/files' }, 'ATTACHMENT_HOST must be a host name such as talk-cdn.example.com (no scheme, no path), got "https://cdn.example.com/files"'],
    [{ BRANDWIRE_SEED: '/nonexistent/seed.json' }, 'BRANDWIRE_SEED names a file that cannot be read: /nonexistent/seed.json (ENOENT)'],
  ])('%j stops the start with one line naming it', async (env, message) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-bad-setting-'));
    try {
      await expect(startBuiltService({ BRANDWIRE_DATA_DIR: dataDir, ...env })).rejects.toThrow(`service exited with 1:\nbrandwire: ${message}\n`);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('the service whose in-process sandbox left a damaged state', () => {
  it('stops the start with one line naming the file and what to do, keeping the file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-bad-sandbox-state-'));
    const file = join(dataDir, 'sandbox', 'state.json');
    try {
      mkdirSync(join(dataDir, 'sandbox'), { recursive: true });
      writeFileSync(file, '{"version":2,');
      await expect(startBuiltService({ BRANDWIRE_DATA_DIR: dataDir })).rejects.toThrow(new RegExp(`^service exited with 1:\\nbrandwire: the sandbox state in ${file.replace(/[.]/g, '\\.')} is unreadable \\(.*\\); move it away to start the sandbox empty\\n$`));
      expect(readFileSync(file, 'utf8')).toBe('{"version":2,');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});

describe('the service whose webhook receiver is down', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-webhook-down-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('logs the failed delivery, naming the channel and the error, not the url', async () => {
    const service = await startBuiltService({ BRANDWIRE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    try {
      const admin = /Admin key:\s+(\S+)/.exec(service.output())?.[1] ?? '';
      // nothing listens on port 9 (discard) here: the connection is refused
      expect(await callJson(`${service.url}/api/agent/settings/webhook`, admin, 'PUT', { brandKey: 'demo-kakao', url: 'http://127.0.0.1:9/hook?token=s3cret' })).toMatchObject({ ok: true });
      await callJson(`${service.url}/sandbox/customers/c1/messages`, admin, 'POST', { brandKey: 'demo-kakao', text: 'hello' });
      const deadline = Date.now() + 10_000;
      while (!service.output().includes('webhook of demo-kakao: delivery failed') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(service.output()).toMatch(/webhook of demo-kakao: delivery failed \(.*ECONNREFUSED.*\); it is tried again from \d{4}-\d\d-\d\dT/);
      expect(service.output()).not.toContain('s3cret');
    } finally {
      await stopBuiltService(service.child);
    }
  }, 30_000);
});
