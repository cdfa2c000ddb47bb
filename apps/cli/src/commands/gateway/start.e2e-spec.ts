import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../test-support/cli';
import { freePort } from '../../test-support/processes';

/** A service that takes connections and never answers: a proxy or a firewall swallowing the requests. */
async function startHungService(): Promise<{ url: string; asked: string[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req) => asked.push(`${req.method ?? ''} ${req.url ?? ''}`));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () => new Promise<void>((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(() => resolve()))),
  };
}

describe('brandwire gateway start with a key from BRANDWIRE_TOKEN and a service that never answers', () => {
  let hung: Awaited<ReturnType<typeof startHungService>>;
  let config: string;
  beforeAll(async () => {
    hung = await startHungService();
    config = mkdtempSync(join(tmpdir(), 'brandwire-hung-'));
  });
  afterAll(async () => {
    await hung.close();
    rmSync(config, { recursive: true, force: true });
  });

  it('asks the service about the key for a few seconds only, says so naming the endpoint, and starts', async () => {
    mkdirSync(config, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(config, 'config.json'),
      JSON.stringify({ token: 'bw_stored_key', scope: 'BrandWrite', knowledge: { queryPort: await freePort() }, gateway: { sink: { type: 'webhook', url: `${hung.url}/hook` } } }),
      { mode: 0o600 },
    );
    const env = { BRANDWIRE_CONFIG_DIR: config, BRANDWIRE_ENDPOINT: hung.url, BRANDWIRE_TOKEN: 'bw_key_from_the_environment' };
    try {
      const began = Date.now();
      const start = await runCli(['gateway', 'start', '--json'], { env, timeoutMs: 40_000 });
      const tookMs = Date.now() - began;
      expect(hung.asked).toContain('GET /api/agent/me');
      expect({ code: start.code, stderr: start.stderr }).toEqual({
        code: 0,
        stderr: `${hung.url} did not answer GET /api/agent/me within 5 s: the key in BRANDWIRE_TOKEN was not checked; the gateway starts and waits for the service (\`brandwire env\` shows the endpoint in use)\n`,
      });
      expect(start.json()).toMatchObject({ ok: true, started: true, relays: ['team chat (webhook)'] });
      expect(tookMs).toBeLessThan(12_000);
    } finally {
      await runCli(['gateway', 'stop', '--timeout', '2'], { env });
    }
  });
});
