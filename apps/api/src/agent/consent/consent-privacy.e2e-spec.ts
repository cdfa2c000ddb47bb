import { readFileSync, readdirSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, startBuiltService, stopBuiltService } from '../../test-support/built-service';

const PHONE = '010-5555-0199';
const NICKNAME = 'Seoyeon';

describe('personal information given in a consent', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-privacy-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is never written to the data directory or the logs, even at the most verbose log level', async () => {
    const service = await startBuiltService({ BRANDWIRE_DATA_DIR: dataDir, LOG_LEVEL: 'trace' });
    try {
      const token = /BrandWrite key:\s+(\S+)/.exec(service.output())?.[1] ?? '';
      await callJson(`${service.url}/sandbox/customers/c1/messages`, token, 'POST', { brandKey: 'demo-kakao', text: 'you may call me' });
      expect(await callJson(`${service.url}/api/agent/personal-info/request`, token, 'POST', { brandKey: 'demo-kakao', userKey: 'c1' })).toMatchObject({ ok: true });
      expect(await callJson(`${service.url}/sandbox/customers/c1/consent`, token, 'POST', { brandKey: 'demo-kakao', nickname: NICKNAME, phoneNumber: PHONE })).toMatchObject({
        ok: true,
      });
      // a malformed consent callback is logged as a failed request: its body must not be
      await fetch(`${service.url}/upstream/personal_info`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ phone_number: PHONE }) });
    } finally {
      await stopBuiltService(service.child);
    }
    expect(service.output()).not.toContain(PHONE);
    expect(service.output()).not.toContain(NICKNAME);
    for (const file of readdirSync(dataDir)) {
      const bytes = readFileSync(join(dataDir, file));
      expect(bytes.includes(PHONE)).toBe(false);
      expect(bytes.includes(NICKNAME)).toBe(false);
    }
  }, 60_000);
});
