import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { callJson, startBuiltService, stopBuiltService } from '../test-support/built-service';

const ADMIN = 'revoked-keys-admin-token-0000001';
const SEED = {
  brands: [{ id: 'acme', name: 'Acme', channels: [{ key: 'acme-kakao', name: 'Acme Kakao', type: 'kakao', plan: { consultations: 100 } }] }],
  keys: [{ token: ADMIN, name: 'ops', scope: 'Admin', brands: ['acme'] }],
};

describe('the start after the only Admin key was revoked', () => {
  const dir = mkdtempSync(join(tmpdir(), 'brandwire-revoked-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the key revoked though the seed names it, and warns of both: the seed and the brand no Admin key reaches', async () => {
    const seedFile = join(dir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(SEED));
    const env = { BRANDWIRE_DATA_DIR: join(dir, 'data'), BRANDWIRE_SEED: seedFile };
    const first = await startBuiltService(env);
    try {
      const me = await callJson(`${first.url}/api/agent/keys`, ADMIN, 'GET');
      const own = (me['keys'] as Array<{ id: string }>)[0]?.id ?? '';
      expect(await callJson(`${first.url}/api/agent/keys/${own}`, ADMIN, 'DELETE')).toMatchObject({ ok: true, self: true });
      expect(first.output()).not.toContain('no Admin key reaches');
    } finally {
      await stopBuiltService(first.child);
    }
    const second = await startBuiltService(env);
    try {
      expect(await callJson(`${second.url}/api/agent/me`, ADMIN, 'GET')).toMatchObject({ ok: false, code: 'UNAUTHORIZED' });
      expect(second.output()).toContain(`the seed ${seedFile} names revoked keys (\\"ops\\"): they stay revoked; take them out of the seed`);
      expect(second.output()).toContain('no Admin key reaches the brands \\"acme\\": no key can change their settings or approve pairings for them; give one in a seed file (BRANDWIRE_SEED)');
    } finally {
      await stopBuiltService(second.child);
    }
  }, 60_000);
});
