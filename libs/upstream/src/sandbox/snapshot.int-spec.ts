import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axios from 'axios';
import { SESSION_LIFETIME_MS } from '@brandwire/domain';
import { must } from '../test-support/must';
import { SandboxHarness } from '../testing/harness';
import { TINY_PNG } from '../testing/images';
import { KAKAO, customerSays, serial, startHarness } from '../test-support/fixtures';

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
});
