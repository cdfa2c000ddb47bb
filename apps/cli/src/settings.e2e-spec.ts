import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_TOKENS, writePng } from '@brandwire/client/testing';
import { CliSandbox } from './test-support/cli';

describe('settings and uploads from the tool', () => {
  let s: CliSandbox;
  const admin = { token: TEST_TOKENS.admin };
  const writer = { token: TEST_TOKENS.writer };

  beforeAll(async () => {
    s = await CliSandbox.start();
  });
  afterAll(async () => {
    await s.stop();
  });

  it('reads the inbound domain with any key and sets it with an Admin key only (403 FORBIDDEN, exit 1)', async () => {
    // a loopback receiver: the service takes http webhooks on loopback addresses while the sandbox is its messenger
    const hook = 'http://127.0.0.1:9/bw';
    const before = await s.run(['webhook-domain', 'get', '--channel', 'acme-kakao', '--json'], writer);
    expect(before.json()).toEqual({ ok: true, brand: 'acme-kakao', url: null });
    const refused = await s.run(['webhook-domain', 'set', '--channel', 'acme-kakao', '--url', hook, '--json'], writer);
    expect(refused.code).toBe(1);
    expect(refused.json()).toEqual({ ok: false, error: expect.stringContaining('needs Admin'), code: 'FORBIDDEN', status: 403, hint: expect.stringContaining('`brandwire whoami` shows what it may do') });
    const set = await s.run(['webhook-domain', 'set', '--brand', 'acme-kakao', '--url', hook, '--json'], admin);
    expect(set.code).toBe(0);
    expect(set.json()).toEqual({ ok: true, brand: 'acme-kakao', url: hook, secret: expect.stringMatching(/^whsec_/) });
    // text shows the Admin the same signing secret as --json does
    const setText = await s.run(['webhook-domain', 'set', '--brand', 'acme-kakao', '--url', hook], admin);
    expect(setText.stdout).toBe(`The signals of acme-kakao now go to ${hook}.\nsigning secret: ${set.json<{ secret: string }>().secret}\n`);
    const shown = await s.run(['webhook-domain', 'get', '--channel', 'acme-kakao'], admin);
    expect(shown.stdout).toMatch(/^channel: acme-kakao\nurl: +http:\/\/127\.0\.0\.1:9\/bw\nsecret: +whsec_/);
    const missingUrl = await s.run(['webhook-domain', 'set', '--channel', 'acme-kakao', '--json'], admin);
    expect(missingUrl.code).toBe(2);
    expect(missingUrl.json()).toMatchObject({ ok: false, code: 'USAGE', error: expect.stringContaining('url') });
    const empty = await s.run(['webhook-domain', 'set', '--channel', 'acme-kakao', '--url', '', '--json'], admin);
    expect(empty.code).toBe(2);
    expect(empty.json()).toMatchObject({ ok: false, code: 'USAGE', error: 'Parsing --url; the webhook URL is empty' });
    // a URL's form is the tool's to check: a usage error naming --url, before the service is asked
    for (const [url, reason] of [['hooks.example.com/bw', 'must be a URL such as https://hooks.example.com/brandwire, got "hooks.example.com/bw"'], ['ftp://127.0.0.1/bw', 'must be an https URL, got one with ftp:']]) {
      const bad = await s.run(['webhook-domain', 'set', '--channel', 'acme-kakao', '--url', url as string, '--json'], admin);
      expect({ code: bad.code, json: bad.json() }).toEqual({ code: 2, json: { ok: false, code: 'USAGE', error: `Parsing --url; the webhook URL ${reason}`, hint: 'see --help for the flags and arguments' } });
    }
    expect((await s.run(['webhook-domain', 'get', '--channel', 'acme-kakao', '--json'], admin)).json()).toMatchObject({ url: hook });
    const off = await s.run(['webhook-domain', 'set', '--channel', 'acme-kakao', '--none'], admin);
    expect(off.code).toBe(0);
    expect(off.stdout).toBe('The signals of acme-kakao now go to nowhere.\n');
    // no secret for a webhook that is not connected, in JSON or text
    const offJson = await s.run(['webhook-domain', 'set', '--channel', 'acme-kakao', '--none', '--json'], admin);
    expect(offJson.json()).toEqual({ ok: true, brand: 'acme-kakao', url: null });
    const gone = await s.run(['webhook-domain', 'get', '--channel', 'acme-kakao', '--json'], admin);
    expect(gone.json()).toEqual({ ok: true, brand: 'acme-kakao', url: null });
    expect((await s.run(['webhook-domain', 'get', '--channel', 'acme-kakao'], admin)).stdout).toBe('channel: acme-kakao\nurl:     none connected\n');
    expect((await s.run(['webhook-domain', 'get', '--channel', 'acme-kakao', '--json'], writer)).json()).toEqual({ ok: true, brand: 'acme-kakao', url: null });
  });

  it('deactivates and activates the chat with an Admin key; sends are refused while it is off', async () => {
    await s.service.customerWrites('u-chat', 'Hello', 'acme-naver');
    expect((await s.run(['chat', 'deactivate', '--channel', 'acme-naver', '--json'], writer)).json()).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    const off = await s.run(['chat', 'deactivate', '--channel', 'acme-naver', '--json'], admin);
    expect(off.code).toBe(0);
    expect(off.json()).toEqual({ ok: true, code: '0', message: null, brand: 'acme-naver', active: false });
    expect((await s.service.call('GET', '/api/agent/settings/chat?brand=acme-naver')).body).toMatchObject({ active: false });
    const send = await s.run(['send', '--channel', 'acme-naver', '--to', 'u-chat', '--text', 'while off', '--json'], writer);
    expect(send.code).toBe(1);
    expect(send.json()).toMatchObject({ ok: false, code: '-508', serial: expect.any(String) });
    const on = await s.run(['chat', 'activate', '--channel', 'acme-naver'], admin);
    expect(on.code).toBe(0);
    expect(on.stdout).toBe('Chat on acme-naver is now active.\n');
  });

  it('gets the schedule and sets it from the file named by --json (Admin key); the output is JSON', async () => {
    const empty = await s.run(['schedule', 'get', '--channel', 'acme-kakao', '--json'], writer);
    expect(empty.json()).toEqual({ ok: true, brand: 'acme-kakao', schedule: null, openNow: true });
    const file = join(s.dir, 'hours.json');
    writeFileSync(file, JSON.stringify({ timeZone: 'Asia/Seoul', weekly: { mon: [{ start: '09:00', end: '18:00' }] }, holidays: ['2030-01-01'] }));
    const refused = await s.run(['schedule', 'set', '--channel', 'acme-kakao', '--json', file], writer);
    expect(refused.code).toBe(1);
    expect(refused.json()).toMatchObject({ ok: false, code: 'FORBIDDEN' });
    const set = await s.run(['schedule', 'set', '--channel', 'acme-kakao', '--json', file], admin);
    expect(set.code).toBe(0);
    expect(set.json()).toMatchObject({ ok: true, brand: 'acme-kakao', schedule: { timeZone: 'Asia/Seoul', weekly: { mon: [{ start: '09:00', end: '18:00' }] }, holidays: ['2030-01-01'] } });
    // a wrapper that always adds the global --json, before the command or after it, still sets the hours
    for (const args of [['--json', 'schedule', 'set', '--channel', 'acme-kakao', '--json', file], ['schedule', 'set', '--json', file, '--channel', 'acme-kakao', '--json']]) {
      const wrapped = await s.run(args, admin);
      expect([wrapped.code, wrapped.stderr]).toEqual([0, '']);
      expect(wrapped.json()).toMatchObject({ ok: true, brand: 'acme-kakao', schedule: { timeZone: 'Asia/Seoul' } });
    }
    const text = await s.run(['schedule', 'get', '--channel', 'acme-kakao'], writer);
    expect(text.stdout).toContain('time zone: Asia/Seoul');
    expect(text.stdout).toMatch(/│ mon +│ 09:00-18:00 │\n│ tue +│ closed +│/);
    const invalid = join(s.dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ weekly: { mon: [{ start: '18:00', end: '09:00' }] } }));
    const bad = await s.run(['schedule', 'set', '--channel', 'acme-kakao', '--json', invalid], admin);
    expect(bad.code).toBe(1);
    expect(bad.json()).toMatchObject({ ok: false, code: 'BAD_REQUEST', status: 400 });
    const noFile = await s.run(['schedule', 'set', '--channel', 'acme-kakao', '--json', join(s.dir, 'none.json')], admin);
    expect(noFile.code).toBe(2);
    expect(noFile.json()).toMatchObject({ ok: false, code: 'FILE' });
    // the file forgotten: --json was given, and here it takes the file's path
    for (const args of [['schedule', 'set', '--channel', 'acme-kakao', '--json'], ['schedule', 'set', '--channel', 'acme-kakao']]) {
      const forgotten = await s.run(args, admin);
      expect({ code: forgotten.code, out: forgotten.json() }).toEqual({
        code: 2,
        out: {
          ok: false,
          code: 'USAGE',
          error: 'missing the schedule file: `schedule set` takes its path in --json (--json <file>, "-" for standard input)',
          hint: 'e.g. brandwire schedule set --channel acme-kakao --json hours.json',
        },
      });
    }
  });

  it('uploads an image (rich or plain) and a file, audio and video, printing the URL', async () => {
    const banner = writePng(join(s.dir, 'banner.png'), 800, 400);
    const rich = await s.run(['upload', 'image', '--channel', 'acme-kakao', '--file', banner, '--json'], writer);
    expect(rich.code).toBe(0);
    expect(rich.json()).toMatchObject({ ok: true, imageType: 'rich', url: expect.stringMatching(/^https?:\/\//) });
    const plain = await s.run(['upload', 'image', '--channel', 'acme-kakao', '--file', banner, '--image-type', 'plain'], writer);
    expect(plain.stdout).toMatch(/^url: +https?:\/\/\S+\nimage type: plain\n/);
    const fake = join(s.dir, 'fake.png');
    writeFileSync(fake, 'not a png');
    const refused = await s.run(['upload', 'image', '--channel', 'acme-kakao', '--file', fake, '--json'], writer);
    expect(refused.code).toBe(1);
    expect(refused.json()).toMatchObject({ ok: false, code: 'UNSUPPORTED_IMAGE', status: 400 });
    for (const [type, name] of [['file', 'terms.pdf'], ['audio', 'hello.mp3'], ['video', 'tour.mp4']] as const) {
      const path = join(s.dir, name);
      writeFileSync(path, `${type} bytes`);
      const run = await s.run(['upload', type, '--channel', 'acme-kakao', '--file', path, '--json'], writer);
      expect({ type, code: run.code }).toEqual({ type, code: 0 });
      expect(run.json()).toMatchObject({ ok: true, fileType: type, url: expect.any(String) });
    }
  });
});
