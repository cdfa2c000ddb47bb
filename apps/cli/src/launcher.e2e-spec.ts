import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { cleanEnv, LAUNCHER } from './test-support/cli';

const PROBE = resolve(__dirname, 'test-support/signal-probe.js');
const NO_CONFIG = '/nonexistent/brandwire-launcher-test';

interface Probed {
  pid: number;
  flags: string;
  arenas: string;
}

/** The launcher and tool of each run not seen to end (a failed expectation leaves them waiting for a signal). */
const running = new Map<number, number[]>();
afterEach(() => {
  for (const pids of running.values()) {
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  running.clear();
});

/** Starts the launcher with the probe in the tool's process and waits until the command printed its JSON line. */
async function launch(args: readonly string[], mode: 'handle' | 'die', env: Record<string, string> = {}) {
  const child = spawn(LAUNCHER, args, {
    env: cleanEnv({ NODE_OPTIONS: `--require ${PROBE}`, PROBE_MODE: mode, BRANDWIRE_CONFIG_DIR: NO_CONFIG, MALLOC_ARENA_MAX: undefined, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const launcherPid = child.pid as number;
  running.set(launcherPid, [launcherPid]);
  // the launcher ends after its child (it waits for the child's exit), unless killed itself
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('close', (code, signal) => {
      running.delete(launcherPid);
      done({ code, signal });
    }),
  );
  const ready = /probe: ready in (\d+) flags \[(.*)\] MALLOC_ARENA_MAX (\S+)\n/;
  const since = Date.now();
  // ready once the tool ran its command (a JSON line on stdout) with the probe installed (stderr)
  while (!(ready.test(stderr) && stdout.includes('"ok":'))) {
    if (Date.now() - since > 15_000) throw new Error(`the tool did not start:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const [, pid, flags, arenas] = ready.exec(stderr) as RegExpExecArray;
  const tool: Probed = { pid: Number(pid), flags: flags as string, arenas: arenas as string };
  running.get(launcherPid)?.push(tool.pid);
  return { launcher: child, tool, exited, output: () => stderr, stdout: () => stdout };
}

function exitOf(args: readonly string[]): Promise<number | null> {
  const child = spawn(LAUNCHER, args, { env: cleanEnv({ BRANDWIRE_CONFIG_DIR: NO_CONFIG }), stdio: 'ignore' });
  return new Promise((done) => child.on('close', done));
}

const ENV = ['env', '--json'];
const BUILD = ['knowledge', 'build', '--json'];

describe('the launcher bin/brandwire', () => {
  it("runs the tool in a child process with Node's defaults", async () => {
    const run = await launch(ENV, 'handle');
    expect(run.tool).toEqual({ pid: expect.any(Number), flags: '', arenas: 'unset' });
    expect(run.tool.pid).not.toBe(run.launcher.pid);
    expect(JSON.parse(run.stdout())).toMatchObject({ ok: true, launcherPath: LAUNCHER });
    run.launcher.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 70, signal: null });
  });

  it.each([[BUILD], [['knowledge:build', '--json']]])('runs %j in a child with a small young generation and two malloc arenas', async (args) => {
    const run = await launch(args, 'handle');
    expect(run.tool).toEqual({ pid: expect.any(Number), flags: '--max-semi-space-size=16', arenas: '2' });
    expect(run.tool.pid).not.toBe(run.launcher.pid);
    expect(JSON.parse(run.stdout())).toMatchObject({ ok: false, code: 'AUTH_REQUIRED' });
    run.launcher.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: 71, signal: null });
  });

  it("keeps the user's own MALLOC_ARENA_MAX for knowledge build", async () => {
    const run = await launch(BUILD, 'handle', { MALLOC_ARENA_MAX: '8' });
    expect(run.tool.arenas).toBe('8');
    run.launcher.kill('SIGINT');
    expect(await run.exited).toEqual({ code: 70, signal: null });
  });

  describe.each([['env --json', ENV], ['knowledge build', BUILD]])('with %s', (_, args) => {
    it.each([
      ['SIGINT', 70],
      ['SIGTERM', 71],
      ['SIGHUP', 72],
    ] as const)('forwards %s to the child and exits with its exit code', async (signal, code) => {
      const run = await launch(args, 'handle');
      run.launcher.kill(signal);
      expect(await run.exited).toEqual({ code, signal: null });
      expect(run.output()).toContain(`probe: got ${signal}\n`);
    });

    it('ends itself by the same signal when the signal ended the child', async () => {
      const run = await launch(args, 'die');
      run.launcher.kill('SIGTERM');
      expect(await run.exited).toEqual({ code: null, signal: 'SIGTERM' });
      expect(() => process.kill(run.tool.pid, 0)).toThrow();
    });
  });

  it("passes the child's exit code through", async () => {
    expect(await exitOf(['whoami', '--json'])).toBe(4);
    expect(await exitOf(['no-such-command'])).toBe(2);
    expect(await exitOf(BUILD)).toBe(4);
  });
});
