import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LiveService } from '@brandwire/client/testing';

/** The launcher a person runs (npx brandwire → bin/brandwire), and the tool it starts. */
export const LAUNCHER = resolve(__dirname, '../../bin/brandwire');
export const RUN_JS = resolve(__dirname, '../../bin/run.js');

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout as the one line of JSON it must be */
  json<T = Record<string, unknown>>(): T;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  stdin?: string;
  timeoutMs?: number;
  /** in a process group of its own, as a shell runs a job: a terminal's Ctrl-C is `process.kill(-pid, 'SIGINT')` */
  processGroup?: boolean;
}

/** The environment of a run: nothing of the developer's own brandwire settings, and no per-process CA bundle cost. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('BRANDWIRE_') || name === 'NO_COLOR' || name === 'NODE_EXTRA_CA_CERTS') delete env[name];
  for (const [name, value] of Object.entries(extra)) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export function spawnCli(args: readonly string[], options: RunOptions = {}, file = LAUNCHER): ChildProcess {
  return spawn(file, args, { env: cleanEnv(options.env), stdio: ['pipe', 'pipe', 'pipe'], detached: options.processGroup === true });
}

/** Runs the tool as a person's shell would (the launcher, or another install of it), collecting its output and exit code. */
export function runCli(args: readonly string[], options: RunOptions = {}, file = LAUNCHER): Promise<CliRun> {
  const child = spawnCli(args, options, file);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin?.end(options.stdin ?? '');
  return new Promise((done, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`brandwire ${args.join(' ')} did not finish in time:\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({
        code,
        signal,
        stdout,
        stderr,
        json<T>() {
          const lines = stdout.split('\n').filter((l) => l !== '');
          if (lines.length !== 1) throw new Error(`expected one line of JSON on stdout, got ${lines.length}:\n${stdout}\nstderr:\n${stderr}`);
          return JSON.parse(lines[0] as string) as T;
        },
      });
    });
  });
}

/** A live service with the test seed, and a fresh config folder for the tool. */
export class CliSandbox {
  private constructor(
    readonly service: LiveService,
    readonly dir: string,
  ) {}

  /** `env`: the service's environment (e.g. ATTACHMENT_HOST) */
  static async start(env: Record<string, string> = {}): Promise<CliSandbox> {
    return new CliSandbox(await LiveService.start(env), mkdtempSync(join(tmpdir(), 'brandwire-cli-')));
  }

  get url(): string {
    return this.service.url;
  }

  /** A config folder of its own (initially empty). */
  configDir(name: string): string {
    return join(this.dir, name);
  }

  /** Runs the tool against this service with a key from the environment (BRANDWIRE_TOKEN) or a config folder. */
  run(args: readonly string[], options: RunOptions & { token?: string; config?: string } = {}): Promise<CliRun> {
    return runCli(args, {
      ...options,
      env: {
        BRANDWIRE_ENDPOINT: this.url,
        BRANDWIRE_CONFIG_DIR: options.config ?? this.configDir('default'),
        ...(options.token ? { BRANDWIRE_TOKEN: options.token } : {}),
        ...options.env,
      },
    });
  }

  async stop(): Promise<void> {
    await this.service.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
