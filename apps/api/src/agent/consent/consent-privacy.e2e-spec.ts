import { readFileSync, readdirSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, startBuiltService, stopBuiltService } from '../../test-support/built-service';
import { WebhookReceiver } from '../../test-support/webhook-receiver';

const PHONE = '010-5555-0199';
const NICKNAME = 'Seoyeon';

describe('personal information given in a consent', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-privacy-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is never written to the data directory or the logs, even at the most verbose log level', async () => {
    const service = await startBuiltService({ BRANDWIRE_DATA_DIR: dataDir, LOG_LEVEL: 'trace', UPSTREAM_PARTNER_KEY: 'privacy-partner-key' });
    const receiver = await WebhookReceiver.start();
    try {
      const token = /BrandWrite key:\s+(\S+)/.exec(service.output())?.[1] ?? '';
      const admin = /Admin key:\s+(\S+)/.exec(service.output())?.[1] ?? '';
      expect(await callJson(`${service.url}/api/agent/settings/webhook`, admin, 'PUT', { brandKey: 'demo-kakao', url: receiver.url })).toMatchObject({ ok: true });
      await callJson(`${service.url}/sandbox/customers/c1/messages`, token, 'POST', { brandKey: 'demo-kakao', text: 'you may call me' });
      expect(await callJson(`${service.url}/api/agent/personal-info/request`, token, 'POST', { brandKey: 'demo-kakao', userKey: 'c1' })).toMatchObject({ ok: true });
      expect(await callJson(`${service.url}/sandbox/customers/c1/consent`, token, 'POST', { brandKey: 'demo-kakao', nickname: NICKNAME, phoneNumber: PHONE })).toMatchObject({
        ok: true,
      });
      // a malformed consent callback (with the partner key, so that its body is read) is logged as a failed request: its body must not be
      const malformed = await fetch(`${service.url}/upstream/personal_info`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-partner-key': 'privacy-partner-key' },
        body: JSON.stringify({ phone_number: PHONE }),
      });
      expect(malformed.status).toBe(400);
      // relayed to the webhook, and nowhere else
      const relayed = await receiver.waitFor((got) => got.some((d) => d.json['kind'] === 'personal_info'));
      expect(relayed.find((d) => d.json['kind'] === 'personal_info')?.json).toMatchObject({ userKey: 'c1', nickname: NICKNAME, phoneNumber: PHONE });
    } finally {
      await stopBuiltService(service.child);
      await receiver.stop();
    }
    expect(service.output()).not.toContain(PHONE);
    expect(service.output()).not.toContain(NICKNAME);
    // the sandbox messenger's state, written into the data folder at the stop, included
    const files = readdirSync(dataDir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(files.map((entry) => entry.name)).toContain('state.json');
    for (const entry of files) {
      const bytes = readFileSync(join(entry.parentPath, entry.name));
      expect(bytes.includes(PHONE)).toBe(false);
      expect(bytes.includes(NICKNAME)).toBe(false);
    }
  }, 60_000);
});
