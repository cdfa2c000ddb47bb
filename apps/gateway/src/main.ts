#!/usr/bin/env node
/** `node apps/gateway/dist/main.js --graph <path> --state <file> [--port <n>]`: see gateway-options.ts. */
import { KnowledgeGraphError } from '@brandwire/knowledge';
import { startGateway } from './gateway';
import { log, messageOf } from './gateway-log';
import { parseGatewayArgs, USAGE, UsageError } from './gateway-options';

async function main(): Promise<number | undefined> {
  let options;
  try {
    options = parseGatewayArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const gateway = await startGateway(options);
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) return;
    stopping = true;
    gateway.stop().then(
      () => {
        log(`gateway stopped (${signal})`);
        process.exit(0);
      },
      (error: unknown) => {
        log(`error: the gateway did not stop cleanly: ${messageOf(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  return undefined;
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    // the graph's code (GRAPH_LOCKED, GRAPH_NEEDS_REPAIR, …) as `brandwire gateway start` shows the log's last lines
    const code = error instanceof KnowledgeGraphError ? ` (${error.code})` : '';
    log(`error: the gateway could not start: ${messageOf(error)}${code}`);
    process.exit(1);
  },
);
