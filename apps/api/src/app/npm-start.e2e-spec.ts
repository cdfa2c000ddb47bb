import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = resolve(__dirname, '../../../..');

/** `npm run <script>` in the repository, and the URL its service prints once it listens. */
async function npmRun(script: string, env: Record<string, string>): Promise<{ npm: ChildProcess; url: string; output: () => string }> {
  const npm = spawn('npm', ['run', script, '--silent'], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  npm.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  npm.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  for (let waited = 0; waited < 60_000; waited += 50) {
    const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
    if (url) return { npm, url, output: () => out };
    if (npm.exitCode !== null) break;
    await sleep(50);
  }
  npm.kill('SIGKILL');
  throw new Error(`npm run ${script} did not start:\n${out}`);
}

async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`)).ok;
  } catch {
    return false;
  }
}

describe('npm start stopped by a SIGTERM to npm alone (a supervisor, `kill <pid>`)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'brandwire-npm-start-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stops the service too: it says it closes, and answers no more', async () => {
    const { npm, url, output } = await npmRun('start', { PORT: '0', BRANDWIRE_DATA_DIR: join(dir, 'data') });
    expect(await answers(url)).toBe(true);
    const exited = new Promise((done) => npm.on('exit', done));
    npm.kill('SIGTERM');
    await exited;
    let stillAnswers = true;
    for (let i = 0; i < 100 && stillAnswers; i++) {
      stillAnswers = await answers(url);
      if (stillAnswers) await sleep(50);
    }
    expect(stillAnswers).toBe(false);
    expect(output()).toContain('SIGTERM: closing');
  }, 90_000);
});
