import { resolve } from 'node:path';
import { cleanEnv, LAUNCHER } from './test-support/cli';
import { spawn } from 'node:child_process';

const PROBE = resolve(__dirname, 'test-support/signal-probe.js');

/** Starts the launcher with the probe in the tool's process and waits until the probe is ready. */
async function launch(mode: 'handle' | 'die') {
  const child = spawn(LAUNCHER, ['env', '--json'], {
    env: cleanEnv({ NODE_OPTIONS: `--require ${PROBE}`, PROBE_MODE: mode, BRANDWIRE_CONFIG_DIR: '/nonexistent/brandwire-launcher-test' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let stdout = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('close', (code, signal) => done({ code, signal })));
  const started = Date.now();
  // ready once the tool ran its command (stdout) with the probe installed (stderr)
  while (!(/probe: ready in (\d+)/.test(stderr) && stdout.includes('"ok":true'))) {
    if (Date.now() - started > 15_000) throw new Error(`the tool did not start:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const childPid = Number(/probe: ready in (\d+)/.exec(stderr)?.[1]);
  return { launcher: child, childPid, exited, output: () => stderr };
}

describe('the launcher bin/brandwire', () => {
  it.each([
    ['SIGINT', 70],
    ['SIGTERM', 71],
    ['SIGHUP', 72],
  ] as const)('forwards %s to the tool and exits with its exit code', async (signal, code) => {
    const run = await launch('handle');
    expect(run.childPid).not.toBe(run.launcher.pid);
    run.launcher.kill(signal);
    expect(await run.exited).toEqual({ code, signal: null });
    expect(run.output()).toContain(`probe: got ${signal}\n`);
  });

  it('ends itself by the same signal when the signal ended the tool', async () => {
    const run = await launch('die');
    run.launcher.kill('SIGTERM');
    expect(await run.exited).toEqual({ code: null, signal: 'SIGTERM' });
    expect(() => process.kill(run.childPid, 0)).toThrow();
  });

  it("passes the tool's exit code through", async () => {
    const child = spawn(LAUNCHER, ['whoami', '--json'], { env: cleanEnv({ BRANDWIRE_CONFIG_DIR: '/nonexistent/brandwire-launcher-test' }) });
    const code = await new Promise((done) => child.on('close', done));
    expect(code).toBe(4);
  });
});
