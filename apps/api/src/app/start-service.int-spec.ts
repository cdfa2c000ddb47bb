import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../config/config';
import type { DemoKeys } from '../seed/demo-brand';
import { type RunningService, startService } from './start-service';

async function takePort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  return { server, port: (server.address() as AddressInfo).port };
}

/** Starts the service without a seed; the demo keys it showed, if any. */
async function startShowing(env: Record<string, string>): Promise<{ service: RunningService; shown: DemoKeys | undefined }> {
  let shown: DemoKeys | undefined;
  const service = await startService(loadConfig(env), { onListening: ({ demoKeys }) => (shown = demoKeys) });
  return { service, shown };
}

async function askMe(service: RunningService, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await fetch(`${service.url}/api/agent/me`, { headers: { authorization: `Bearer ${token}` } });
  return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
}

function withDataDir(): { env: Record<string, string> } {
  const context = { env: {} as Record<string, string> };
  let dataDir = '';
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'brandwire-start-'));
    context.env = { BRANDWIRE_DATA_DIR: dataDir, LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0' };
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
  return context;
}

describe('a service that fails to start', () => {
  const context = withDataDir();

  it('closes what it opened, so its data folder is free for the next attempt', async () => {
    const taken = await takePort();
    try {
      await expect(startService(loadConfig({ ...context.env, PORT: String(taken.port) }))).rejects.toThrow(
        new Error(`cannot listen on 127.0.0.1:${taken.port}: the address is in use (PORT)`),
      );
      const service = await startService(loadConfig(context.env));
      expect(service.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      await service.close();
    } finally {
      taken.server.close();
    }
  });


  it('refuses a data folder that is a file with a configuration error naming BRANDWIRE_DATA_DIR', async () => {
    const file = join(context.env['BRANDWIRE_DATA_DIR'] as string, 'a-file');
    writeFileSync(file, '');
    await expect(startService(loadConfig({ ...context.env, BRANDWIRE_DATA_DIR: file }))).rejects.toThrow(
      new ConfigError(`BRANDWIRE_DATA_DIR=${file} is not a folder (EEXIST)`),
    );
  });
});

describe('the demo keys of a first start without a seed', () => {
  const context = withDataDir();

  it('are not stored by a start on a port in use: the next start shows new ones, which work, and a later start shows none', async () => {
    const taken = await takePort();
    try {
      await expect(startShowing({ ...context.env, PORT: String(taken.port) })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      taken.server.close();
    }

    const { service, shown } = await startShowing(context.env);
    try {
      expect(shown).toEqual({ admin: expect.stringMatching(/^bw_/), agent: expect.stringMatching(/^bw_/) });
      expect(service.demoKeys).toEqual(shown);
      expect(await askMe(service, shown?.agent ?? '')).toMatchObject({ status: 200, body: { name: 'demo-agent', scope: 'BrandWrite' } });
      expect(await askMe(service, shown?.admin ?? '')).toMatchObject({ status: 200, body: { name: 'demo-admin', scope: 'Admin' } });
    } finally {
      await service.close();
    }

    const later = await startShowing(context.env);
    await later.service.close();
    expect(later.shown).toBeUndefined();
  });

  it('work in a request sent the moment they are shown: it waits until they are stored', async () => {
    let sentAtOnce: Promise<Response> | undefined;
    const service = await startService(loadConfig(context.env), {
      onListening: ({ url, demoKeys }) => {
        sentAtOnce = fetch(`${url}/api/agent/me`, { headers: { authorization: `Bearer ${demoKeys?.agent ?? ''}` } });
      },
    });
    try {
      expect((await sentAtOnce)?.status).toBe(200);
    } finally {
      await service.close();
    }
  });

  it('are not stored by a start that stops between showing and storing them: the next start shows new ones', async () => {
    let lost: DemoKeys | undefined;
    let held: Promise<number | string> | undefined;
    const crashing = startService(loadConfig(context.env), {
      onListening: ({ url, demoKeys }) => {
        lost = demoKeys;
        held = fetch(`${url}/api/agent/me`, { headers: { authorization: `Bearer ${demoKeys?.agent ?? ''}` } }).then(
          (reply) => reply.status,
          () => 'dropped',
        );
        throw new Error('stopped right after showing the keys');
      },
    });
    await expect(crashing).rejects.toThrow('stopped right after showing the keys');
    expect(lost?.agent).toMatch(/^bw_/);
    expect(await held).toBe('dropped');

    const { service, shown } = await startShowing(context.env);
    try {
      expect(shown?.agent).toMatch(/^bw_/);
      expect(shown?.agent).not.toBe(lost?.agent);
      expect((await askMe(service, lost?.agent ?? '')).status).toBe(401);
      expect((await askMe(service, shown?.agent ?? '')).status).toBe(200);
    } finally {
      await service.close();
    }
  });
});
