import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { occupyPort } from '../test-support/occupy-port';
import { StandaloneProcess, runStandaloneSandbox } from './standalone';

/** A process as the sandbox sees it: what it prints, how it exits, and signals delivered as the OS does. */
class StandIn extends EventEmitter implements StandaloneProcess {
  out = '';
  err = '';
  readonly exits: number[] = [];
  /** the signal that ended the process because no handler took it */
  killedBy: string | undefined;
  readonly exited: Promise<number>;
  private onExit: (code: number) => void = () => undefined;

  constructor(readonly env: NodeJS.ProcessEnv) {
    super();
    this.exited = new Promise((resolve) => (this.onExit = resolve));
  }

  stdout(text: string): void {
    this.out += text;
  }

  stderr(text: string): void {
    this.err += text;
  }

  exit(code: number): void {
    this.exits.push(code);
    this.onExit(code);
  }

  get signals(): this {
    return this;
  }

  signal(name: 'SIGINT' | 'SIGTERM'): void {
    if (!this.emit(name)) this.killedBy = name;
  }
}

describe('the standalone sandbox (npm run sandbox)', () => {
  let dir: string;
  const run = async () => {
    const p = new StandIn({ SANDBOX_PORT: '0', SANDBOX_STATE_DIR: dir, SANDBOX_PARTNER_KEY: 'k' });
    await runStandaloneSandbox(p);
    expect(p.out).toMatch(/^sandbox messenger listening on http:\/\/127\.0\.0\.1:\d+\n$/);
    return p;
  };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-standalone-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('ignores further signals while it stops, and keeps its state', async () => {
    const p = await run();
    p.signal('SIGINT');
    p.signal('SIGINT');
    p.signal('SIGTERM');
    expect(await p.exited).toBe(0);
    expect(p.killedBy).toBeUndefined();
    expect(p.exits).toEqual([0]);
    expect(existsSync(join(dir, 'state.json'))).toBe(true);
  });

  it('says why it could not keep its state', async () => {
    await mkdir(join(dir, 'state.json.tmp'));
    const p = await run();
    p.signal('SIGTERM');
    expect(await p.exited).toBe(1);
    expect(p.err).toMatch(/^sandbox messenger: could not keep its state: EISDIR: .*state\.json\.tmp.*\n$/);
  });

  it('says so when its previous port is taken', async () => {
    const first = await run();
    const previous = Number(new URL(first.out.trim().split(' ').at(-1) ?? '').port);
    first.signal('SIGTERM');
    await first.exited;
    const blocker = await occupyPort(previous);
    try {
      const second = await run();
      second.signal('SIGTERM');
      await second.exited;
      expect(second.err).toMatch(new RegExp(`^sandbox messenger: the sandbox's previous port ${previous} is taken: it listens on \\d+, .*\n$`));
    } finally {
      blocker.close();
    }
  });

  it('refuses to start on a state it cannot read, saying so in one line', async () => {
    await writeFile(join(dir, 'state.json'), '{"version":1}\n');
    const p = new StandIn({ SANDBOX_PORT: '0', SANDBOX_STATE_DIR: dir });
    await runStandaloneSandbox(p);
    expect(p.exits).toEqual([1]);
    expect(p.err).toBe(`sandbox messenger failed to start: the sandbox state in ${join(dir, 'state.json')} is of version 1, this sandbox reads version 2; move it away to start the sandbox empty\n`);
  });
});
