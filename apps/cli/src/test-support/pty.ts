import { type ChildProcess, spawn } from 'node:child_process';
import { cleanEnv } from './cli';

/** Strips ANSI escape sequences and carriage returns. */
export function plain(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
}

/** A command run on a pseudo-terminal (util-linux `script`), driven by waiting for output and typing. */
export class Pty {
  private out = '';
  private readonly closed: Promise<number | null>;
  private readonly child: ChildProcess;

  constructor(command: string, env: Record<string, string | undefined>) {
    this.child = spawn('script', ['-qec', command, '/dev/null'], { env: cleanEnv({ TERM: 'xterm-256color', COLUMNS: '120', ...env }) });
    this.child.stdout?.on('data', (chunk: Buffer) => (this.out += chunk.toString()));
    this.closed = new Promise((done) => this.child.on('close', done));
  }

  /** everything the terminal showed so far, escape sequences included */
  get output(): string {
    return this.out;
  }

  async waitFor(pattern: RegExp | string, timeoutMs = 15_000): Promise<void> {
    const started = Date.now();
    while (!(typeof pattern === 'string' ? plain(this.out).includes(pattern) : pattern.test(plain(this.out)))) {
      if (Date.now() - started > timeoutMs) throw new Error(`the terminal never showed ${String(pattern)}:\n${plain(this.out)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  type(text: string): void {
    this.child.stdin?.write(text);
  }

  exit(): Promise<number | null> {
    return this.closed;
  }
}
