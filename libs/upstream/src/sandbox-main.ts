/**
 * Runs the sandbox messenger standalone.
 * Env: SANDBOX_PORT (8081), SANDBOX_HOST (127.0.0.1), SANDBOX_PARTNER_KEY ('sandbox-partner-key'),
 * SANDBOX_ATTACHMENT_HOST ('talk-cdn.sandbox.invalid'), SANDBOX_STATE_DIR (none: the state lives in memory only).
 */
import { ShiftableClock } from './clock';
import { startSandboxMessenger } from './sandbox/server';

function portOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 8081;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`SANDBOX_PORT must be 0..65535, got '${raw}'`);
  return port;
}

async function main(): Promise<void> {
  const sandbox = await startSandboxMessenger({
    host: process.env['SANDBOX_HOST'] || '127.0.0.1',
    port: portOf(process.env['SANDBOX_PORT']),
    partnerKey: process.env['SANDBOX_PARTNER_KEY'] || 'sandbox-partner-key',
    attachmentHost: process.env['SANDBOX_ATTACHMENT_HOST'] || 'talk-cdn.sandbox.invalid',
    clock: new ShiftableClock(),
    stateDir: process.env['SANDBOX_STATE_DIR'] || undefined,
  });
  process.stdout.write(`sandbox messenger listening on ${sandbox.url}\n`);
  const stop = (): void => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`sandbox messenger failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
