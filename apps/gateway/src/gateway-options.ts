import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** Default port of the query API, the CLI's setting `knowledge.queryPort` unless changed. */
export const DEFAULT_QUERY_PORT = 8790;

/** Resident memory past which the gateway stops itself (see memory-guard.ts). */
export const DEFAULT_MEMORY_LIMIT_MB = 2048;

export const USAGE = `Usage: node apps/gateway/dist/main.js --graph <path> --state <file> [--port <n>] [--memory-limit-mb <n>]

The Brandwire gateway daemon. \`brandwire gateway start\` runs it in the background; run it by hand only to debug.
It opens the knowledge graph read-only (as "the gateway", the name a refused \`knowledge build\` shows) and serves
its query API and view page on 127.0.0.1 until SIGTERM or SIGINT.

Every request needs the access token the gateway makes at each start and keeps only in its state file
(queryToken): programs send \`Authorization: Bearer <token>\`; a browser opens http://127.0.0.1:<port>/?token=<token>
(\`brandwire gateway status\` prints it), which trades the token for a cookie. Without it: 401 UNAUTHORIZED.

  --graph <path>   the knowledge graph's Kuzu database file; when it does not exist yet the gateway still starts
                   and its status says installed:false (restart it after \`brandwire knowledge install\` and build)
  --state <file>   where to write { pid, port, graph, startedAt, relays, queryToken } once listening (mode 0600);
                   removed at exit
  --port <n>       port of the query API on 127.0.0.1 (default ${DEFAULT_QUERY_PORT}; 0 = any free port)
  --memory-limit-mb <n>
                   resident memory past which the gateway stops itself, logging why (default ${DEFAULT_MEMORY_LIMIT_MB}): a query
                   that builds a huge list would otherwise take the machine's memory
  --help           this text

With BRANDWIRE_GATEWAY_RELAY set (JSON: endpoint, token, configFile, sink, crm; \`brandwire gateway start\` sets it
from the config), it also relays every channel's signals to the team chat and the CRM, keeping where it stopped in
relay-cursors.json beside the state file. When the service refuses the key, it reads the key in configFile again
until \`brandwire login\` stores a valid one for the same endpoint (one for another endpoint takes a restart).

Logs one line per start, stop and error on stdout. Exit codes: 0 stopped by a signal, 1 failed, 2 bad command line.`;

export interface GatewayOptions {
  graph: string;
  state: string;
  port: number;
  memoryLimitMb: number;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The command line, or 'help'; a UsageError names what is wrong. */
export function parseGatewayArgs(args: readonly string[]): GatewayOptions | 'help' {
  let values;
  try {
    values = parseArgs({
      args: [...args],
      options: { graph: { type: 'string' }, state: { type: 'string' }, port: { type: 'string' }, 'memory-limit-mb': { type: 'string' }, help: { type: 'boolean' } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help === true) return 'help';
  if (values.graph === undefined || values.graph === '') throw new UsageError('--graph <path> is required: the knowledge graph to serve.');
  if (values.state === undefined || values.state === '') throw new UsageError('--state <file> is required: where the gateway writes its pid and port.');
  const port = values.port === undefined ? DEFAULT_QUERY_PORT : Number(values.port);
  if (!/^\d+$/.test(values.port ?? String(DEFAULT_QUERY_PORT)) || port > 65535) {
    throw new UsageError(`--port must be a whole number from 0 to 65535, got "${String(values.port)}".`);
  }
  const limit = values['memory-limit-mb'];
  const memoryLimitMb = limit === undefined ? DEFAULT_MEMORY_LIMIT_MB : Number(limit);
  if (limit !== undefined && (!/^\d+$/.test(limit) || memoryLimitMb < 64)) {
    throw new UsageError(`--memory-limit-mb must be a whole number of at least 64, got "${limit}".`);
  }
  return { graph: resolve(values.graph), state: resolve(values.state), port, memoryLimitMb };
}
