import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError } from './cli-error';
import type { Session, StoredConfig } from './config-store';
import { gatewayStatePath, knowledgeGraphPath } from './data-dir';
import { EXIT } from './exit-codes';
import { gatewayByCommandLine, gatewayLogPath, logSize, logTail, portTaken, runsGateway, spawnDetached, terminate, waitUntil } from './gateway-process';
import { type GatewayState, readGatewayState, removeGatewayState } from './gateway-state';
import { relayEnvironment } from './gateway-relay-env';
import { queryPortOf } from './knowledge-settings';
import { whileHolding } from './start-lock';

/** How long start waits for the query API to answer, and stop for the daemon to exit before SIGKILL. */
const START_TIMEOUT_MS = 10_000;
export const DEFAULT_STOP_GRACE_SECONDS = 10;

export interface GatewayPaths {
  statePath: string;
  logPath: string;
  graphPath: string;
}

export function gatewayPaths(): GatewayPaths {
  // absolute, as the daemon records them: its command line is matched against the state path
  const statePath = resolve(gatewayStatePath());
  return { statePath, logPath: gatewayLogPath(statePath), graphPath: resolve(knowledgeGraphPath()) };
}

/**
 * A running gateway: as its state file describes it, or found by its command line when that file is damaged, gone
 * or names another process (a reused pid); what it relays and where it takes commands are then not known.
 */
export type RunningGateway = GatewayState & { foundBy: 'state file' | 'command line' };

/** The gateway of this config folder when it runs; a state file left by a gateway that is gone is removed. */
export function runningGateway(paths: GatewayPaths = gatewayPaths()): RunningGateway | undefined {
  const state = readGatewayState(paths.statePath);
  if (state && runsGateway(state.pid, paths.statePath)) return { ...state, foundBy: 'state file' };
  const found = gatewayByCommandLine(paths.statePath);
  if (found) return { ...found, foundBy: 'command line' };
  if (state) removeGatewayState(paths.statePath);
  return undefined;
}

/** What the running gateway relays signals to and where it takes the team chat's commands; absent when not known. */
export interface GatewayRelays {
  relays?: string[];
  commandsUrl?: string | null;
}

function relaysOf(running: RunningGateway): GatewayRelays {
  return running.foundBy === 'state file' ? { relays: running.relays ?? [], commandsUrl: running.commandsUrl ?? null } : {};
}

/** The gateway's page with its token, as a browser opens it; null when the token is not known (its state file is damaged or gone). */
export function gatewayViewUrl(port: number, queryToken: string | undefined): string | null {
  return queryToken === undefined ? null : `http://127.0.0.1:${port}/?token=${queryToken}`;
}

export type GatewayStartResult = { ok: true; started: boolean; pid: number; port: number; startedAt: string; viewUrl: string | null } & GatewayRelays & GatewayPaths;

/**
 * Starts the daemon unless it runs already (then says so: started false), and waits for its query API to answer.
 * `note` tells people what the start goes on without (a key it could not check).
 */
export async function startGateway(session: Session, note?: (message: string) => void): Promise<GatewayStartResult> {
  const paths = gatewayPaths();
  mkdirSync(dirname(paths.statePath), { recursive: true, mode: 0o700 });
  return whileHolding(`${paths.statePath}.starting`, START_TIMEOUT_MS + 5_000, () => startUnlessRunning(session, paths, note));
}

async function startUnlessRunning(session: Session, paths: GatewayPaths, note: ((message: string) => void) | undefined): Promise<GatewayStartResult> {
  const { config } = session;
  const running = runningGateway(paths);
  if (running) {
    return { ok: true, started: false, pid: running.pid, port: running.port, startedAt: running.startedAt, viewUrl: gatewayViewUrl(running.port, running.queryToken), ...relaysOf(running), ...paths };
  }
  const port = queryPortOf(config);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new CliError('CONFIG', `knowledge.queryPort in the config file must be a port from 1 to 65535, got ${JSON.stringify(port)}`, EXIT.error);
  }
  const { gatewayAnswers, probeGateway } = await import('@brandwire/knowledge-web');
  // with no token of ours, any gateway there refuses: it is not this folder's
  if ((await probeGateway(port, undefined)) !== 'none') {
    throw new CliError('PORT_IN_USE', `a gateway this tool did not start (another config folder or another user?) already answers on port ${port}`, EXIT.error, { port }, 'stop that gateway, or choose another port: `brandwire setup <key> --query-port <n>`');
  }
  if (await portTaken(port)) {
    throw new CliError('PORT_IN_USE', `port ${port} on 127.0.0.1 is taken by another program`, EXIT.error, { port }, 'stop that program, or choose another port: `brandwire setup <key> --query-port <n>`');
  }
  const relayEnv = await relayEnvironment(session, note);
  const logFrom = logSize(paths.logPath);
  const daemon = await spawnDetached(['--graph', paths.graphPath, '--state', paths.statePath, '--port', String(port)], paths.logPath, relayEnv);
  // the new daemon's token is in the state file it writes once listening
  const ready = async (): Promise<boolean> => {
    const state = readGatewayState(paths.statePath);
    return state?.pid === daemon.pid && state.queryToken !== undefined && (await gatewayAnswers(port, state.queryToken));
  };
  if (!(await waitUntil(ready, daemon, START_TIMEOUT_MS))) {
    if (!daemon.exited()) await terminate(daemon.pid, 2000);
    const tail = logTail(paths.logPath, logFrom);
    throw new CliError('GATEWAY_FAILED', `the gateway did not start${daemon.exited() ? '' : ` within ${START_TIMEOUT_MS / 1000} s`}${tail ? `; its log ${paths.logPath} ends with:\n${tail}` : ''}`, EXIT.error, { logPath: paths.logPath });
  }
  const state = readGatewayState(paths.statePath);
  return {
    ok: true,
    started: true,
    pid: daemon.pid,
    port,
    startedAt: state?.startedAt ?? new Date().toISOString(),
    viewUrl: gatewayViewUrl(port, state?.queryToken),
    relays: state?.relays ?? [],
    commandsUrl: state?.commandsUrl ?? null,
    ...paths,
  };
}

export interface GatewayStopResult {
  ok: true;
  /** false when it was not running */
  stopped: boolean;
  pid: number | null;
  /** it had not exited when the grace time passed, and was killed */
  killed: boolean;
  statePath: string;
}

/** SIGTERM to the gateway and waits until it is gone (SIGKILL after `graceSeconds`); not running is no failure. */
export async function stopGateway(graceSeconds = DEFAULT_STOP_GRACE_SECONDS): Promise<GatewayStopResult> {
  const paths = gatewayPaths();
  const running = runningGateway(paths);
  if (!running) return { ok: true, stopped: false, pid: null, killed: false, statePath: paths.statePath };
  const how = await terminate(running.pid, graceSeconds * 1000);
  // a gateway that was killed could not remove its state file, nor one that found it damaged or naming another
  // process; a file written since by a gateway that runs is that gateway's
  const onFile = readGatewayState(paths.statePath);
  if (onFile === undefined || onFile.pid === running.pid || !runsGateway(onFile.pid, paths.statePath)) removeGatewayState(paths.statePath);
  return { ok: true, stopped: true, pid: running.pid, killed: how === 'killed', statePath: paths.statePath };
}

export interface GatewayStatusResult extends GatewayRelays {
  ok: true;
  running: boolean;
  pid: number | null;
  port: number;
  startedAt: string | null;
  uptimeSeconds: number | null;
  /** its query API answered just now (refusing this tool, when its token is not known) */
  answers: boolean;
  /** its page with its token; null when not running or the token is not known */
  viewUrl: string | null;
  graphPath: string;
  logPath: string;
  statePath: string;
}

export async function gatewayStatus(config: StoredConfig): Promise<GatewayStatusResult> {
  const paths = gatewayPaths();
  const running = runningGateway(paths);
  const port = running?.port ?? queryPortOf(config);
  const { probeGateway } = await import('@brandwire/knowledge-web');
  const probe = running === undefined ? 'none' : await probeGateway(port, running.queryToken);
  const answers = probe === 'answers' || (running?.queryToken === undefined && probe === 'refuses-token');
  const started = running ? Date.parse(running.startedAt) : NaN;
  return {
    ok: true,
    running: running !== undefined,
    pid: running?.pid ?? null,
    port,
    startedAt: running?.startedAt || null,
    uptimeSeconds: Number.isNaN(started) ? null : Math.max(0, Math.round((Date.now() - started) / 1000)),
    answers,
    viewUrl: running ? gatewayViewUrl(port, running.queryToken) : null,
    ...(running ? relaysOf(running) : { relays: [], commandsUrl: null }),
    graphPath: running?.graph ?? paths.graphPath,
    logPath: paths.logPath,
    statePath: paths.statePath,
  };
}
