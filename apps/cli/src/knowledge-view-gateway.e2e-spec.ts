import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_TOKENS } from '@brandwire/client/testing';
import { type CliRun, CliSandbox, spawnCli } from './test-support/cli';
import { exited, firstLine, freePort } from './test-support/processes';

/** A restart, a stop and a build on a busy machine, with a view running all along. */
const LIFECYCLE_MS = 120_000;

describe('brandwire knowledge view while the gateway restarts, stops and starts again', () => {
  let s: CliSandbox;
  let config: string;
  let graphPath: string;

  const cli = (args: readonly string[]): Promise<CliRun> => s.run(args, { config, token: TEST_TOKENS.reader });

  /** Who holds the graph file now, by the holder files every process opening it writes. */
  const holders = (): string[] => {
    const dir = `${graphPath}.holders`;
    if (!existsSync(dir)) return [];
    return readdirSync(dir).map((name) => (JSON.parse(readFileSync(join(dir, name), 'utf8')) as { description: string }).description).sort();
  };

  beforeAll(async () => {
    s = await CliSandbox.start();
    config = s.configDir('view-gw');
    graphPath = join(config, 'knowledge', 'graph.kuzu');
    mkdirSync(config, { recursive: true, mode: 0o700 });
    writeFileSync(join(config, 'config.json'), JSON.stringify({ knowledge: { queryPort: await freePort() } }), { mode: 0o600 });
    await s.service.customerWrites('erin', 'Do you ship to Jeju island?');
    expect((await cli(['knowledge', 'install'])).code).toBe(0);
    expect((await cli(['knowledge', 'build'])).code).toBe(0);
  });
  afterAll(async () => {
    // never leave a daemon behind, whatever failed
    await cli(['gateway', 'stop', '--timeout', '2']);
    await s.stop();
  });

  it(
    'keeps answering from the gateway after a restart, from the graph file while it is stopped, and from the gateway again once it runs',
    async () => {
      expect((await cli(['gateway', 'start', '--json'])).json()).toMatchObject({ ok: true, started: true });
      let view: ChildProcess | undefined = spawnCli(['knowledge', 'view', '--port', '0', '--json'], { env: { BRANDWIRE_ENDPOINT: s.url, BRANDWIRE_CONFIG_DIR: config, BRANDWIRE_TOKEN: TEST_TOKENS.reader }, processGroup: true });
      try {
        const started = JSON.parse(await firstLine(view)) as { url: string; port: number; via: string };
        expect(started.via).toBe('gateway');
        const viewToken = new URL(started.url).searchParams.get('token') ?? '';
        const ask = async (path: string): Promise<[number, unknown]> => {
          const answer = await fetch(`http://127.0.0.1:${started.port}${path}`, { headers: { authorization: `Bearer ${viewToken}` } });
          return [answer.status, await answer.json()];
        };
        const customers = (): Promise<[number, unknown]> => ask(`/cypher?q=${encodeURIComponent('MATCH (c:Customer) RETURN c.userKey AS who ORDER BY who')}`);

        expect(await customers()).toEqual([200, expect.objectContaining({ ok: true, rows: [['erin']] })]);
        expect(holders()).toEqual(['the gateway']);

        // a new gateway, with a new token in its state file
        expect((await cli(['gateway', 'restart', '--json'])).json()).toMatchObject({ ok: true, started: true });
        expect(await customers()).toEqual([200, expect.objectContaining({ ok: true, rows: [['erin']] })]);
        expect(await ask('/knowledge/status')).toEqual([200, expect.objectContaining({ ok: true, installed: true, nodes: expect.objectContaining({ Customer: 1 }) })]);

        // no gateway: the graph file, read-only, held by the view as one started without a gateway holds it
        expect((await cli(['gateway', 'stop', '--json'])).json()).toMatchObject({ ok: true, stopped: true });
        expect(await customers()).toEqual([200, expect.objectContaining({ ok: true, rows: [['erin']] })]);
        expect(holders()).toEqual(['brandwire knowledge view']);
        const locked = await cli(['knowledge', 'build', '--json']);
        expect(locked.json()).toMatchObject({ ok: false, code: 'GRAPH_LOCKED', holders: [expect.objectContaining({ description: 'brandwire knowledge view', readOnly: true })] });

        // the gateway starts beside it, and the view goes back to it, giving the file up
        expect((await cli(['gateway', 'start', '--json'])).json()).toMatchObject({ ok: true, started: true });
        expect(await customers()).toEqual([200, expect.objectContaining({ ok: true, rows: [['erin']] })]);
        expect(holders()).toEqual(['the gateway']);

        // stop, build, start: the view, asked nothing meanwhile, keeps no build out, and then shows what it added
        await s.service.customerWrites('frank', 'Is the blue jacket back in stock?');
        expect((await cli(['gateway', 'stop', '--json'])).json()).toMatchObject({ ok: true, stopped: true });
        const build = await cli(['knowledge', 'build', '--json']);
        expect({ code: build.code, stderr: build.stderr }).toEqual({ code: 0, stderr: '' });
        expect((await cli(['gateway', 'start', '--json'])).json()).toMatchObject({ ok: true, started: true });
        expect(await customers()).toEqual([200, expect.objectContaining({ ok: true, rows: [['erin'], ['frank']] })]);
        expect(holders()).toEqual(['the gateway']);

        view.kill('SIGINT');
        await exited(view);
        expect(view.exitCode).toBe(0);
        view = undefined;
      } finally {
        // the launcher and the tool it started
        if (view?.pid !== undefined) process.kill(-view.pid, 'SIGKILL');
      }
    },
    LIFECYCLE_MS,
  );
});
