import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config';
import { startService } from './start-service';

describe('a service that fails to start', () => {
  it('closes what it opened, so its data folder is free for the next attempt', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'brandwire-start-'));
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', () => done()));
    const { port } = taken.address() as AddressInfo;
    try {
      const env = { BRANDWIRE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', HOST: '127.0.0.1' };
      await expect(startService(loadConfig({ ...env, PORT: String(port) }))).rejects.toThrow(/EADDRINUSE/);
      const service = await startService(loadConfig({ ...env, PORT: '0' }));
      expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await service.close();
    } finally {
      taken.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
