import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { TEST_TOKENS, writePng } from '@brandwire/client/testing';
import { type CliRun, CliSandbox, LAUNCHER, cleanEnv } from './test-support/cli';
import { startHoldingProxy } from './test-support/holding-proxy';

/** The tool waits this long for an answer in these tests (uploads four times as long), instead of 30 s. */
const TIMEOUT_ENV = { BRANDWIRE_TIMEOUT_MS: '500' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('send: no answer in time, and the Idempotency-Key that makes the repeat safe', () => {
  let s: CliSandbox;
  const writer = { token: TEST_TOKENS.writer };

  beforeAll(async () => {
    s = await CliSandbox.start();
  });
  afterAll(async () => {
    await s.stop();
  });

  const agentBubbles = async (userKey: string) => (await s.service.customerChat(userKey)).filter((b) => b.from !== 'customer').map((b) => ({ kind: b.kind, text: b.text }));

  /** Runs a command line as a person pastes it into a shell, `brandwire` being the tool, against the service itself. */
  function paste(commandLine: string): Promise<CliRun> {
    const child = spawn('bash', ['-c', commandLine], {
      env: cleanEnv({ PATH: `${dirname(LAUNCHER)}:${process.env['PATH'] ?? ''}`, BRANDWIRE_ENDPOINT: s.url, BRANDWIRE_TOKEN: TEST_TOKENS.writer, BRANDWIRE_CONFIG_DIR: s.configDir('paste') }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((done) =>
      child.on('close', (code, signal) => done({ code, signal, stdout, stderr, json: <T>() => JSON.parse(stdout) as T })),
    );
  }

  it('sends an Idempotency-Key with every send (text, rich, files), a new one each time unless --idempotency-key names it', async () => {
    const proxy = await startHoldingProxy(s.url, () => false);
    try {
      await s.service.customerWrites('u-keys', 'Hi');
      const card = `${s.dir}/keys-card.json`;
      writeFileSync(card, JSON.stringify({ chat_bubble_type: 'TEXT', message: 'A card' }));
      const note = `${s.dir}/keys-note.txt`;
      writeFileSync(note, 'terms');
      const env = { BRANDWIRE_ENDPOINT: proxy.url };
      for (const how of [['--text', 'one'], ['--text', 'two'], ['--rich-json', card], ['--file', note]]) {
        const run = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-keys', ...how, '--json'], { ...writer, env });
        expect({ how, code: run.code, stderr: run.stderr }).toEqual({ how, code: 0, stderr: '' });
      }
      const keys = proxy.seen.map((r) => r.idempotencyKey);
      expect(proxy.seen.map((r) => r.path)).toEqual(['/api/agent/send', '/api/agent/send', '/api/agent/send/rich', '/api/agent/send/attachments']);
      for (const key of keys) expect(key).toMatch(UUID);
      expect(new Set(keys).size).toBe(4);

      const chosen = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-keys', '--text', 'three', '--idempotency-key', 'order-7-shipped', '--json'], { ...writer, env });
      expect(chosen.code).toBe(0);
      expect(proxy.seen.at(-1)?.idempotencyKey).toBe('order-7-shipped');
    } finally {
      await proxy.close();
    }
  });

  it('answers a repeat with the same --idempotency-key with the first answer: one bubble, the same serial', async () => {
    await s.service.customerWrites('u-twice', 'Hi');
    const args = ['send', '--channel', 'acme-kakao', '--to', 'u-twice', '--text', 'Only once', '--idempotency-key', 'twice-1', '--json'];
    const first = await s.run(args, writer);
    const again = await s.run(args, writer);
    expect([first.code, again.code]).toEqual([0, 0]);
    expect(again.json()).toEqual(first.json());
    expect(await agentBubbles('u-twice')).toEqual([{ kind: 'text', text: 'Only once' }]);
  });

  it('reports a text send without an answer as TIMEOUT, maybe delivered, with the safe repeat; the repeat sends no second bubble', async () => {
    const proxy = await startHoldingProxy(s.url, (method) => method === 'POST');
    try {
      await s.service.customerWrites('u-late', 'Where is my parcel?');
      const run = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-late', '--text', "It's on its way", '--json'], { ...writer, env: { BRANDWIRE_ENDPOINT: proxy.url, ...TIMEOUT_ENV } });
      const key = proxy.seen[0]?.idempotencyKey ?? '';
      expect(key).toMatch(UUID);
      expect({ code: run.code, out: run.json() }).toEqual({
        code: 1,
        out: {
          ok: false,
          error: `no answer from the service at ${proxy.url} within 0.5 s: the send may have been delivered`,
          code: 'TIMEOUT',
          brandKey: 'acme-kakao',
          userKey: 'u-late',
          idempotencyKey: key,
          hint: `\`brandwire rooms --channel acme-kakao --to u-late\` shows whether it arrived; sending it again with its key is safe (a repeat gets the first answer, never a second bubble): brandwire send --channel acme-kakao --to u-late --text 'It'\\''s on its way' --json --idempotency-key ${key}`,
        },
      });
      // it was delivered all the same
      await proxy.held();
      expect(await agentBubbles('u-late')).toEqual([{ kind: 'text', text: "It's on its way" }]);

      const repeat = await paste(/: (brandwire send .*)$/.exec(run.json<{ hint: string }>().hint)?.[1] ?? 'false');
      expect({ code: repeat.code, stderr: repeat.stderr }).toEqual({ code: 0, stderr: '' });
      expect(repeat.json()).toEqual({ ok: true, brandKey: 'acme-kakao', userKey: 'u-late', serial: expect.any(String) });
      expect(await agentBubbles('u-late')).toEqual([{ kind: 'text', text: "It's on its way" }]);
    } finally {
      await proxy.close();
    }
  });

  it('says the same for people of a file send (uploads wait four times as long), keeping a chosen key', async () => {
    const proxy = await startHoldingProxy(s.url, (method) => method === 'POST');
    try {
      await s.service.customerWrites('u-late-file', 'The receipt?');
      const png = writePng(`${s.dir}/late receipt.png`, 40, 40);
      const run = await s.run(['send', '--to', 'u-late-file', '--file', png, '--idempotency-key', 'receipt-42', '--brand', 'acme-kakao'], {
        ...writer,
        env: { BRANDWIRE_ENDPOINT: proxy.url, ...TIMEOUT_ENV },
      });
      expect({ code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr:
          `Error: no answer from the service at ${proxy.url} within 2 s: the send may have been delivered (TIMEOUT)\n` +
          `Hint: \`brandwire rooms --channel acme-kakao --to u-late-file\` shows whether it arrived; sending it again with its key is safe (a repeat gets the first answer, never a second bubble): brandwire send --to u-late-file --file '${png}' --idempotency-key receipt-42 --brand acme-kakao\n`,
      });
      expect(proxy.seen.map((r) => r.idempotencyKey)).toEqual(['receipt-42']);
      await proxy.held();
      expect(await agentBubbles('u-late-file')).toEqual([{ kind: 'rich', text: 'Photo' }]);
      const repeat = await paste(/: (brandwire send .*)$/.exec(run.stderr.trimEnd())?.[1] ?? 'false');
      expect({ code: repeat.code, stderr: repeat.stderr }).toEqual({ code: 0, stderr: '' });
      expect(await agentBubbles('u-late-file')).toEqual([{ kind: 'rich', text: 'Photo' }]);
    } finally {
      await proxy.close();
    }
  });

  it('says the outcome of another change is unknown too, and keeps the NETWORK message for a read', async () => {
    const proxy = await startHoldingProxy(s.url, () => true);
    try {
      const env = { BRANDWIRE_ENDPOINT: proxy.url, ...TIMEOUT_ENV };
      const block = await s.run(['block', '--channel', 'acme-kakao', '--to', 'u-block-late', '--json'], { ...writer, env });
      expect({ code: block.code, out: block.json() }).toEqual({
        code: 1,
        out: {
          ok: false,
          error: `no answer from the service at ${proxy.url} within 0.5 s: POST /api/agent/block may have been carried out`,
          code: 'TIMEOUT',
          hint: 'check whether it took effect before doing it again',
        },
      });
      const rooms = await s.run(['rooms', '--channel', 'acme-kakao', '--json'], { ...writer, env });
      expect({ code: rooms.code, out: rooms.json() }).toEqual({
        code: 1,
        out: { ok: false, error: `could not reach the service at ${proxy.url}: no answer within 500 ms`, code: 'NETWORK', hint: 'check --endpoint (or BRANDWIRE_ENDPOINT): `brandwire env` shows the one in use' },
      });
      await proxy.held();
    } finally {
      await proxy.close();
    }
  });

  it('says the same when the connection broke after the send went out, and NETWORK when it never reached the service', async () => {
    // reads each request to its end, then drops the connection without an answer
    const seen: string[] = [];
    const hangUp: Server = createServer((request) => {
      seen.push(`${request.method ?? ''} ${request.url ?? ''}`);
      request.resume();
      request.on('end', () => request.socket.destroy());
    });
    await new Promise<void>((done) => hangUp.listen(0, '127.0.0.1', done));
    const endpoint = `http://127.0.0.1:${(hangUp.address() as AddressInfo).port}`;
    try {
      const env = { BRANDWIRE_ENDPOINT: endpoint };
      const send = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-broke', '--text', 'On its way', '--idempotency-key', 'broke-1', '--json'], { ...writer, env });
      expect({ code: send.code, out: send.json() }).toEqual({
        code: 1,
        out: {
          ok: false,
          error: `the connection to the service at ${endpoint} broke before its answer (ECONNRESET): the send may have been delivered`,
          code: 'TIMEOUT',
          brandKey: 'acme-kakao',
          userKey: 'u-broke',
          idempotencyKey: 'broke-1',
          hint: '`brandwire rooms --channel acme-kakao --to u-broke` shows whether it arrived; sending it again with its key is safe (a repeat gets the first answer, never a second bubble): brandwire send --channel acme-kakao --to u-broke --text \'On its way\' --idempotency-key broke-1 --json',
        },
      });
      const block = await s.run(['block', '--channel', 'acme-kakao', '--to', 'u-broke', '--json'], { ...writer, env });
      expect({ code: block.code, out: block.json() }).toEqual({
        code: 1,
        out: {
          ok: false,
          error: `the connection to the service at ${endpoint} broke before its answer (ECONNRESET): POST /api/agent/block may have been carried out`,
          code: 'TIMEOUT',
          hint: 'check whether it took effect before doing it again',
        },
      });
      expect(seen).toEqual(['POST /api/agent/send', 'POST /api/agent/block']);
    } finally {
      await new Promise((done) => hangUp.close(done));
    }
    const refused = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-broke', '--text', 'On its way', '--json'], { ...writer, env: { BRANDWIRE_ENDPOINT: 'http://127.0.0.1:9' } });
    expect({ code: refused.code, out: refused.json() }).toEqual({
      code: 1,
      out: { ok: false, error: 'could not reach the service at http://127.0.0.1:9: ECONNREFUSED', code: 'NETWORK', hint: 'check --endpoint (or BRANDWIRE_ENDPOINT): `brandwire env` shows the one in use' },
    });
  });

  it('refuses a BRANDWIRE_TIMEOUT_MS that is not a number of milliseconds, or longer than an upload can wait (CONFIG, exit 1)', async () => {
    for (const value of ['soon', '536870912']) {
      const run = await s.run(['rooms', '--channel', 'acme-kakao', '--json'], { ...writer, env: { BRANDWIRE_TIMEOUT_MS: value } });
      expect({ value, code: run.code, out: run.json() }).toEqual({
        value,
        code: 1,
        out: { ok: false, error: `BRANDWIRE_TIMEOUT_MS must be a whole number of milliseconds from 1 to 536870911, got "${value}"`, code: 'CONFIG', hint: 'leave it unset to wait 30000 ms' },
      });
    }
  });
});
