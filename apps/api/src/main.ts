import 'reflect-metadata';
import { isDataDirInUse, isDatabaseUnreachable } from '@brandwire/store';
import { SandboxStateError } from '@brandwire/upstream';
import { ConfigError, type Config, loadConfig } from './config/config';
import { ListenError } from './app/listen';
import { SqliteFileError, asSqliteFileError } from './app/sqlite-file-error';
import { type ListeningService, startService } from './app/start-service';
import { SeedError } from './seed/seed-file';

/** How long a stop may take before the process ends anyway. */
const CLOSE_TIMEOUT_MS = 20_000;

function banner(config: Config, { url, runtime, demoKeys }: ListeningService): string {
  const lines = [
    `Brandwire listening on ${url}`,
    `  storage: ${runtime.store.dialect}${runtime.store.dialect === 'sqlite' ? ` (${config.dataDir})` : ''}`,
    `  messenger: ${config.upstreamUrl ?? 'sandbox messenger in this process'}`,
    `  API documentation: ${url}/api/docs`,
  ];
  if (demoKeys) {
    lines.push(
      '',
      'Created the demo brand "demo" with the Kakao channel "demo-kakao". These keys are shown only this once:',
      `  Admin key:      ${demoKeys.admin}`,
      `  BrandWrite key: ${demoKeys.agent}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const config = loadConfig();
  const service = await startService(config, { onListening: (listening) => process.stdout.write(banner(config, listening)) }).catch((error: unknown) => {
    throw asSqliteFileError(error, config);
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    process.stdout.write(`${signal}: closing\n`);
    // whatever keeps the close waiting, a supervisor's stop must end the process
    setTimeout(() => {
      process.stderr.write(`brandwire: not closed within ${CLOSE_TIMEOUT_MS / 1000} s of ${signal}; exiting\n`);
      process.exit(1);
    }, CLOSE_TIMEOUT_MS).unref();
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`error while closing: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  const known =
    error instanceof ConfigError ||
    error instanceof ListenError ||
    error instanceof SeedError ||
    error instanceof SandboxStateError ||
    error instanceof SqliteFileError ||
    isDataDirInUse(error) ||
    isDatabaseUnreachable(error);
  process.stderr.write(`brandwire: ${known ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
