import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const MAIN = resolve(__dirname, '../dist/main.js');

interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
}

/** Starts the built service as `npm start` does and waits for its banner. */
function startBuiltService(dataDir: string): Promise<Started> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', BRANDWIRE_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in time:\n${out}`)), 30_000);
    child.on('exit', (code) => reject(new Error(`service exited with ${String(code)}:\n${out}`)));
    const poll = setInterval(() => {
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1] && (out.includes('API documentation') || out.includes('BrandWrite key'))) {
        clearInterval(poll);
        clearTimeout(timer);
        resolveStart({ child, url: match[1], output: () => out });
      }
    }, 25);
  });
}

function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | string | null> {
  return new Promise((done) => {
    child.removeAllListeners('exit');
    child.on('exit', (code, killedBy) => done(code ?? killedBy));
    child.kill(signal);
  });
}

async function call(url: string, token: string, method: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await response.json()) as Record<string, unknown>;
}

describe('the service started as a user starts it', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-e2e-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates the demo brand with keys shown once, sends and reads back, and keeps the journal through a crash', async () => {
    const first = await startBuiltService(dataDir);
    const writer = /BrandWrite key:\s+(\S+)/.exec(first.output())?.[1];
    expect(/Admin key:\s+bw_\S+/.test(first.output())).toBe(true);
    expect(writer).toMatch(/^bw_/);
    const token = writer as string;

    const wrote = await call(`${first.url}/sandbox/customers/demo-customer/messages`, token, 'POST', { brandKey: 'demo-kakao', text: 'hello there' });
    expect(wrote['ok']).toBe(true);
    const sent = await call(`${first.url}/api/agent/send`, token, 'POST', { brandKey: 'demo-kakao', userKey: 'demo-customer', text: 'Hi! How can I help?' });
    expect(sent).toMatchObject({ ok: true, code: '0', message: null });
    // A crash right after ok:true must not lose the journal item.
    expect(await stop(first.child, 'SIGKILL')).toBe('SIGKILL');

    const second = await startBuiltService(dataDir);
    try {
      expect(second.output()).not.toContain('BrandWrite key');
      const read = await call(`${second.url}/api/agent/rooms/demo-customer/messages?brand=demo-kakao`, token, 'GET');
      const messages = read['messages'] as Array<{ kind: string; text: string; serial?: string }>;
      expect(messages.map((m) => [m.kind, m.text])).toEqual([
        ['agent', 'Hi! How can I help?'],
        ['message', 'hello there'],
        ['reference', 'Consultation started'],
      ]);
      expect(messages[0]?.serial).toBe(sent['serial']);
    } finally {
      expect(await stop(second.child)).toBe(0);
    }
  }, 60_000);
});
