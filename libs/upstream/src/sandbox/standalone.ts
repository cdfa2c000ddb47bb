import { ShiftableClock } from '../clock';
import { messageOf } from './error-message';
import { SandboxMessenger, startSandboxMessenger } from './server';

/** What the standalone sandbox uses of its process: the real one in sandbox-main.ts, a stand-in in tests. */
export interface StandaloneProcess {
  env: NodeJS.ProcessEnv;
  stdout(text: string): void;
  stderr(text: string): void;
  exit(code: number): void;
  /** where SIGINT and SIGTERM arrive */
  signals: Pick<NodeJS.EventEmitter, 'on'>;
}

function portOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8081;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`SANDBOX_PORT must be 0..65535, got '${raw}'`);
  return port;
}

/**
 * Runs the sandbox messenger until SIGINT or SIGTERM, then stops it, keeping its state when it has a state folder.
 * Env: SANDBOX_PORT (8081), SANDBOX_HOST (127.0.0.1), SANDBOX_PARTNER_KEY ('sandbox-partner-key'),
 * SANDBOX_ATTACHMENT_HOST ('talk-cdn.sandbox.invalid'), SANDBOX_STATE_DIR (none: the state lives in memory only).
 */
export async function runStandaloneSandbox(p: StandaloneProcess): Promise<void> {
  const stateDir = p.env['SANDBOX_STATE_DIR'] || undefined;
  let sandbox: SandboxMessenger;
  try {
    sandbox = await startSandboxMessenger({
      host: p.env['SANDBOX_HOST'] || '127.0.0.1',
      port: portOf(p.env['SANDBOX_PORT']),
      partnerKey: p.env['SANDBOX_PARTNER_KEY'] || 'sandbox-partner-key',
      attachmentHost: p.env['SANDBOX_ATTACHMENT_HOST'] || 'talk-cdn.sandbox.invalid',
      clock: new ShiftableClock(),
      stateDir,
      onNotice: (message) => p.stderr(`sandbox messenger: ${message}\n`),
    });
  } catch (err) {
    p.stderr(`sandbox messenger failed to start: ${messageOf(err)}\n`);
    p.exit(1);
    return;
  }
  p.stdout(`sandbox messenger listening on ${sandbox.url}\n`);
  let stopping = false;
  const stop = (): void => {
    // a second Ctrl-C while the state is written must not end the process (a signal without a handler would)
    if (stopping) return;
    stopping = true;
    sandbox.close().then(
      () => p.exit(0),
      (err: unknown) => {
        p.stderr(`sandbox messenger: ${stateDir === undefined ? 'could not stop' : 'could not keep its state'}: ${messageOf(err)}\n`);
        p.exit(1);
      },
    );
  };
  p.signals.on('SIGINT', stop);
  p.signals.on('SIGTERM', stop);
}
