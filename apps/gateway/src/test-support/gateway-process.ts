import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The built daemon, as `brandwire gateway start` runs it. */
export const GATEWAY_MAIN = resolve(__dirname, '../../dist/main.js');

export interface GatewayState {
  pid: number;
  port: number;
  graph: string;
  startedAt: string;
  queryToken: string;
}

export interface GatewayProcess {
  child: ChildProcess;
  /** everything printed so far on stdout and stderr */
  stdout: () => string;
  stderr: () => string;
  /** resolves with the exit code, or the signal that ended the process */
  exited: Promise<number | string | null>;
}

/** `env`: added to the test's own environment (BRANDWIRE_GATEWAY_RELAY, say). */
export function spawnGateway(args: readonly string[], extraEnv: Record<string, string> = {}): GatewayProcess {
  const env = { ...process.env, ...extraEnv };
  delete env['NODE_EXTRA_CA_CERTS'];
  const child = spawn(process.execPath, [GATEWAY_MAIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
  // 'close', not 'exit': it comes once the output pipes are drained too, so stdout() then holds everything
  const exited = new Promise<number | string | null>((done) => child.on('close', (code, signal) => done(code ?? signal)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Waits until the state file names this process, failing when the process exits first. */
export async function waitForState(gateway: GatewayProcess, file: string, timeoutMs = 20_000): Promise<GatewayState> {
  let exitCode: number | string | null | undefined;
  void gateway.exited.then((code) => (exitCode = code));
  const started = Date.now();
  for (;;) {
    if (existsSync(file)) {
      const state = JSON.parse(readFileSync(file, 'utf8')) as GatewayState;
      // the start line is written before the state file, but may still be in the pipe
      if (state.pid === gateway.child.pid && gateway.stdout().includes('gateway started')) return state;
    }
    if (exitCode !== undefined) throw new Error(`the gateway exited (${String(exitCode)}) before writing its state:\n${gateway.stdout()}${gateway.stderr()}`);
    if (Date.now() - started > timeoutMs) throw new Error(`the gateway wrote no state file in time:\n${gateway.stdout()}${gateway.stderr()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Waits until `probe` holds; past `timeoutMs`, fails with what the gateway logged (`output`). */
export async function until(what: string, probe: () => boolean, output: () => string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the gateway logged:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
