import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axios from 'axios';
import { SESSION_LIFETIME_MS } from '@brandwire/domain';
import { SandboxControlClient } from '../client/control-client';
import { ShiftableClock } from '../clock';
import { must } from '../test-support/must';
import { occupyPort } from '../test-support/occupy-port';
import { CallbackReceiver } from '../testing/callback-receiver';
import { SandboxHarness } from '../testing/harness';
import { TINY_PNG } from '../testing/images';
import { KAKAO, customerSays, serial, startHarness } from '../test-support/fixtures';
import { startSandboxMessenger } from './server';
import { SandboxStateError } from './state-error';

const HOUR_S = 3_600;

describe('sandbox state kept across a restart (stateDir)', () => {
  let dir: string;
  const open: SandboxHarness[] = [];
  const start = async () => {
    const h = await startHarness({ stateDir: dir });
    open.push(h);
    return h;
  };
  const stop = async (h: SandboxHarness) => {
    open.splice(open.indexOf(h), 1);
    await h.close();
  };
  const chatOf = async (h: SandboxHarness, userKey: string) => {
    const r = await h.control.chat(userKey, KAKAO);
    if (!r.ok) throw new Error(r.message);
    return r.bubbles.map((b) => b.text ?? b.imageUrl);
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-state-'));
  });
  afterEach(async () => {
    for (const h of open.splice(0)) await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps chats, sessions in progress, blocks, used serials, uploads and the clock', async () => {
    const first = await start();
    await customerSays(first, 'keep-user', 'hello');
    const sent = serial();
    expect(await first.messenger.writeText({ senderKey: KAKAO, userKey: 'keep-user', serialNumber: sent, message: 'hi, how can I help?' })).toEqual({ code: '0', message: null });
    const upload = await first.messenger.uploadImage({ senderKey: KAKAO, data: TINY_PNG, fileName: 'a.png', imageType: 'plain' });
    const imageUrl = must(upload.url);
    expect(await first.messenger.writeImage({ senderKey: KAKAO, userKey: 'keep-user', serialNumber: serial(), imageUrl })).toEqual({ code: '0', message: null });
    await customerSays(first, 'blocked-user', 'spam');
    expect((await first.messenger.block({ senderKey: KAKAO, userKey: 'blocked-user' })).code).toBe('0');
    await first.control.advanceClock(2 * HOUR_S);
    const firstSerials = first.receiver.of('/message').map((c) => Number(c.body['serial_number']));
    await stop(first);

    const second = await start();
    expect(existsSync(join(dir, 'state.json'))).toBe(false);
    expect(existsSync(join(dir, 'clock.json'))).toBe(true);
    expect(second.clock.offsetMs).toBeGreaterThanOrEqual(2 * HOUR_S * 1000);
    expect(await chatOf(second, 'keep-user')).toEqual(['hello', 'hi, how can I help?', imageUrl]);
    // the consultation is still in progress: no -502, and the customer's next message continues it
    expect(await second.messenger.writeText({ senderKey: KAKAO, userKey: 'keep-user', serialNumber: serial(), message: 'still here' })).toEqual({ code: '0', message: null });
    await customerSays(second, 'keep-user', 'thanks');
    expect(second.receiver.paths()).toEqual(['/message']);
    expect(Number(must(second.receiver.of('/message')[0]).body['serial_number'])).toBeGreaterThan(Math.max(...firstSerials));
    expect(await second.messenger.writeText({ senderKey: KAKAO, userKey: 'keep-user', serialNumber: sent, message: 'again' })).toMatchObject({ code: '-504' });
    expect(await second.messenger.writeText({ senderKey: KAKAO, userKey: 'blocked-user', serialNumber: serial(), message: 'x' })).toMatchObject({ code: '-511' });
    // the upload is served at the same url and can be sent again
    expect(second.sandbox.url).toBe(new URL(imageUrl).origin);
    expect(Buffer.from((await axios.get<ArrayBuffer>(imageUrl, { responseType: 'arraybuffer' })).data).equals(TINY_PNG)).toBe(true);
    expect(await second.messenger.writeImage({ senderKey: KAKAO, userKey: 'keep-user', serialNumber: serial(), imageUrl })).toEqual({ code: '0', message: null });
  });

  it('keeps what a rich bubble shows (buttons, quick replies, cards, list items); its quick replies can still be tapped', async () => {
    const first = await start();
    await customerSays(first, 'rich-keep', 'hello');
    const qr = serial();
    const text = { chat_bubble_type: 'TEXT', message: 'pick', attachment: { buttons: [{ type: 'BK', name: 'Talk' }], quick_replies: [{ type: 'WL', name: 'Site', url_mobile: 'https://m.test' }, { type: 'BK', name: 'No' }] } };
    const carousel = { chat_bubble_type: 'CAROUSEL_FEED', carousel: { list: [{ header: 'Boots', buttons: [{ type: 'BK', name: 'More' }] }, { header: 'Hats', message: 'warm' }] } };
    const list = { chat_bubble_type: 'ITEM_LIST', message: 'new in', attachment: { item: { list: [{ title: 'Scarf', description: 'wool' }] } } };
    for (const [serialNumber, envelope] of [[qr, text], [serial(), carousel], [serial(), list]] as const) {
      expect(await first.messenger.sendRich({ senderKey: KAKAO, userKey: 'rich-keep', serialNumber, envelope })).toEqual({ code: '0', message: null });
    }
    const shown = async (h: SandboxHarness) => {
      const r = await h.control.chat('rich-keep', KAKAO);
      if (!r.ok) throw new Error(r.message);
      return r.bubbles.slice(1).map(({ buttons, quickReplies, cards, items }) => ({ buttons, quickReplies, cards, items }));
    };
    const before = await shown(first);
    expect(before).toEqual([
      { buttons: [{ label: 'Talk', type: 'BK' }], quickReplies: [{ label: 'Site', type: 'WL', url: 'https://m.test' }, { label: 'No', type: 'BK' }] },
      { cards: [{ header: 'Boots', buttons: [{ label: 'More', type: 'BK' }] }, { header: 'Hats', message: 'warm' }] },
      { items: [{ title: 'Scarf', description: 'wool' }] },
    ]);
    await stop(first);
    const second = await start();
    expect(await shown(second)).toEqual(before);
    second.receiver.expect('/message', (b) => (b['contents'] as string[])[0] === 'No');
    const tap = await second.control.tap('rich-keep', { senderKey: KAKAO, serial: qr, quickReply: 1 });
    expect(tap.ok && tap.callbacks.map((c) => c.path)).toEqual(['/message']);
    await second.receiver.verify();
  });

  it('keeps a consent request waiting: the customer can still agree after the restart', async () => {
    const first = await start();
    await customerSays(first, 'consent-user', 'hello');
    await first.messenger.requestConsent({ senderKey: KAKAO, userKey: 'consent-user', serialNumber: serial() });
    await stop(first);
    const second = await start();
    const r = await second.control.consent('consent-user', { senderKey: KAKAO, nickname: 'Jin', phoneNumber: '010-1234-5678' });
    expect(r.ok && r.callbacks.map((c) => c.path)).toEqual(['/personal_info']);
  });

  it('a kept session still expires 30 days after the customer last wrote', async () => {
    const first = await start();
    await customerSays(first, 'expiring-user', 'hello');
    await stop(first);
    const second = await start();
    second.receiver.expect('/expired_session', (b) => b['user_key'] === 'expiring-user');
    await second.control.advanceClock(SESSION_LIFETIME_MS / 1000 + HOUR_S + 60);
    await second.receiver.verify();
    expect((await second.messenger.writeText({ senderKey: KAKAO, userKey: 'expiring-user', serialNumber: serial(), message: 'late' })).code).toBe('-502');
  });

  it('starts empty, its old uploads removed, when the previous run kept nothing (it crashed)', async () => {
    const first = await start();
    await customerSays(first, 'crash-user', 'hello');
    await first.messenger.uploadImage({ senderKey: KAKAO, data: TINY_PNG, fileName: 'a.png', imageType: 'plain' });
    await stop(first);
    // the second run takes the kept state, then "crashes": it is still running when the third starts
    await start();
    const third = await start();
    expect(await chatOf(third, 'crash-user')).toEqual([]);
    expect(await readdir(join(dir, 'files'))).toEqual([]);
  });

  it('refuses to start on an unreadable state file, naming it', async () => {
    const first = await start();
    await stop(first);
    await writeFile(join(dir, 'state.json'), '{"version":1,');
    await expect(start()).rejects.toThrow(`the sandbox state in ${join(dir, 'state.json')} is unreadable`);
  });

  /** A first run that kept a chat and an upload, stopped; returns the kept state file's text and the upload's file. */
  const keepSome = async () => {
    const first = await start();
    await customerSays(first, 'kept-user', 'hello');
    await first.messenger.uploadImage({ senderKey: KAKAO, data: TINY_PNG, fileName: 'a.png', imageType: 'plain' });
    await stop(first);
    return { text: await readFile(join(dir, 'state.json'), 'utf8'), files: await readdir(join(dir, 'files')) };
  };
  const portOf = (url: string) => Number(new URL(url).port);

  it('a start that fails (its port taken) leaves the kept state and uploads as they were', async () => {
    const kept = await keepSome();
    const blocker = await occupyPort(0);
    try {
      const failing = startSandboxMessenger({ port: blocker.port, partnerKey: 'k', clock: new ShiftableClock(), attachmentHost: 'cdn.invalid', stateDir: dir });
      await expect(failing).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      blocker.close();
    }
    expect(await readFile(join(dir, 'state.json'), 'utf8')).toBe(kept.text);
    expect(await readdir(join(dir, 'files'))).toEqual(kept.files);
    const next = await start();
    expect(await chatOf(next, 'kept-user')).toEqual(['hello']);
    expect(await readdir(join(dir, 'files'))).toEqual(kept.files);
  });

  it('keeps the partner callback url: a restarted sandbox calls the partner without being told again', async () => {
    const receiver = await CallbackReceiver.start();
    const clock = new ShiftableClock();
    const startBare = () => startSandboxMessenger({ port: 0, partnerKey: 'k', clock, attachmentHost: 'cdn.invalid', stateDir: dir });
    try {
      const first = await startBare();
      const control = new SandboxControlClient({ baseUrl: first.url, partnerKey: 'k' });
      await control.setPartner({ callbackUrl: receiver.url });
      await control.setChannel(KAKAO, { type: 'kakao', chatbotBuilder: false });
      const firstBoot = (await control.info()).bootId;
      control.close();
      await first.close();

      const second = await startBare();
      const again = new SandboxControlClient({ baseUrl: second.url, partnerKey: 'k' });
      try {
        const info = await again.info();
        expect(info).toMatchObject({ sandbox: true, now: expect.any(Number) });
        expect(typeof info.bootId).toBe('string');
        expect(info.bootId).not.toBe(firstBoot);
        const r = await again.customerMessage('callback-user', { senderKey: KAKAO, text: 'hello' });
        expect(r).toMatchObject({ ok: true, callbacks: [{ path: '/reference', status: 200 }, { path: '/message', status: 200 }] });
      } finally {
        again.close();
        await second.close();
      }
    } finally {
      await receiver.close();
    }
  });

  const lineOf = (lines: string[], kind: string) => lines.findIndex((l) => (JSON.parse(l) as Record<string, unknown>)[kind] !== undefined);
  const edits: [what: string, edit: (lines: string[]) => void, message: string][] = [
    ['a version 1 state', (lines) => lines.splice(0, lines.length, '{"version":1}'), 'is of version 1, this sandbox reads version 2'],
    ['a header without its fields', (lines) => (lines[0] = '{"version":2}'), 'is not a sandbox state (line 1: header.port is not a number)'],
    ['a line that is not an object', (lines) => (lines[1] = '[]'), 'is not a sandbox state (line 2: the line is not an object)'],
    [
      'a customer with blocked null',
      (lines) => {
        const i = lineOf(lines, 'customer');
        lines[i] = must(lines[i]).replace('"blocked":false', '"blocked":null');
      },
      'customer.blocked is not true or false',
    ],
    [
      'a bubble whose quick replies are null',
      (lines) => {
        const i = lineOf(lines, 'bubble');
        lines[i] = must(lines[i]).replace('"quickReplies":[]', '"quickReplies":null');
      },
      'bubble.quickReplies is not a list',
    ],
    ['a file cut short', (lines) => lines.splice(lineOf(lines, 'end')), 'is not whole'],
  ];

  it.each(edits)('refuses to start on %s with a clear message, keeping the file', async (_what, edit, message) => {
    const kept = await keepSome();
    const lines = kept.text.trimEnd().split('\n');
    edit(lines);
    const broken = `${lines.join('\n')}\n`;
    await writeFile(join(dir, 'state.json'), broken);
    const failing = start();
    await expect(failing).rejects.toThrow(SandboxStateError);
    await expect(failing).rejects.toThrow(new RegExp(`^the sandbox state in ${join(dir, 'state.json')} .*${escape(message)}.*; move it away to start the sandbox empty$`));
    expect(await readFile(join(dir, 'state.json'), 'utf8')).toBe(broken);
    expect(await readdir(join(dir, 'files'))).toEqual(kept.files);
  });

  it('keeps the clock moved through the sandbox also when the sandbox crashes (no state kept)', async () => {
    const first = await start();
    await first.control.advanceClock(3 * HOUR_S);
    // the first "crashes": still running, it never wrote its state when the next starts
    const second = await start();
    expect(existsSync(join(dir, 'state.json'))).toBe(false);
    expect(second.clock.offsetMs).toBeGreaterThanOrEqual(3 * HOUR_S * 1000);
  });

  it('answers 503 STATE_NOT_WRITABLE and leaves the clock where it was when it cannot write the clock file', async () => {
    const h = await start();
    await h.control.advanceClock(HOUR_S);
    const kept = h.clock.offsetMs;
    const clockFile = join(dir, 'clock.json');
    await rm(clockFile);
    await mkdir(clockFile);
    await writeFile(join(clockFile, 'occupied'), '');

    const res = await axios.post(`${h.sandbox.url}/_sandbox/clock`, { advanceSeconds: 2 * HOUR_S }, { headers: { 'X-Partner-Key': 'test-partner-key' }, validateStatus: () => true });
    expect(h.clock.offsetMs).toBe(kept);
    expect([res.status, res.data]).toEqual([
      503,
      { ok: false, code: 'STATE_NOT_WRITABLE', message: `could not write clock.json (EISDIR); the clock was not moved` },
    ]);
    await expect(h.control.advanceClock(HOUR_S)).resolves.toMatchObject({ ok: false, code: 'STATE_NOT_WRITABLE' });
    expect(h.clock.offsetMs).toBe(kept);

    await rm(clockFile, { recursive: true });
    await expect(h.control.advanceClock(HOUR_S)).resolves.toMatchObject({ ok: true });
    expect(h.clock.offsetMs).toBe(kept + HOUR_S * 1000);
    expect(JSON.parse(await readFile(clockFile, 'utf8'))).toEqual({ offsetMs: kept + HOUR_S * 1000 });
  });

  it('refuses a clock file it cannot read, naming it', async () => {
    await writeFile(join(dir, 'clock.json'), '{"offsetMs":"soon"}');
    await expect(start()).rejects.toThrow(`the sandbox state in ${join(dir, 'clock.json')} is not a sandbox clock (clock.offsetMs is not a number)`);
  });

  it('tells when the previous port is taken and it listens on another', async () => {
    const first = await start();
    const previous = portOf(first.sandbox.url);
    await stop(first);
    const blocker = await occupyPort(previous);
    const notices: string[] = [];
    try {
      const next = await startSandboxMessenger({ port: 0, partnerKey: 'k', clock: new ShiftableClock(), attachmentHost: 'cdn.invalid', stateDir: dir, onNotice: (m) => notices.push(m) });
      await next.close();
      expect(notices).toEqual([
        `the sandbox's previous port ${previous} is taken: it listens on ${portOf(next.url)}, and the urls of earlier uploads and long texts no longer work`,
      ]);
    } finally {
      blocker.close();
    }
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
