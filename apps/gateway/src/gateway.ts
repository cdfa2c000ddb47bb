/**
 * The gateway daemon: the knowledge query API and view page over the graph it holds read-only, and, when
 * `brandwire gateway start` hands it relay settings, the relay of the channels' signals to a team chat, a CRM and
 * an AI, and the team chat's commands.
 */
import { GATEWAY_SERVICE, type KnowledgeBackend, KnowledgeApiError, type KnowledgeServer, newAccessToken, startKnowledgeServer } from '@brandwire/knowledge-web';
import { dirname, join } from 'node:path';
import { type CommandServer, type CommandServerOptions, startCommandServer } from './commands/command-server';
import { Memos } from './commands/memos';
import { TeamCommands } from './commands/team-commands';
import { log, messageOf } from './gateway-log';
import type { GatewayOptions } from './gateway-options';
import { openGraphBackend } from './graph-access';
import { guardMemory } from './memory-guard';
import { type RunningRelay, startRelay } from './relay/relay';
import { RelayCursors } from './relay/relay-cursors';
import { RELAY_ENV, aiReplyName, relayName, relaySettingsFrom, scopeNeededBy } from './relay/relay-settings';
import { ServiceKey } from './service-key';
import { removeState, writeState } from './state-file';

export interface RunningGateway {
  port: number;
  stop(): Promise<void>;
}

function describeGraph(path: string, status: Awaited<ReturnType<KnowledgeBackend['status']>>): string {
  if (!status.installed) return `graph ${path} (not installed yet: the query API answers status only)`;
  const nodes = Object.values(status.nodes).reduce((sum, n) => sum + n, 0);
  const relations = Object.values(status.relations).reduce((sum, n) => sum + n, 0);
  return `graph ${path} (read-only, ${nodes} nodes, ${relations} relations)`;
}

/** `commandOptions`: where the team chat's later answers go (Slack's and Discord's own unless told; see CommandServerOptions). */
export async function startGateway(options: GatewayOptions, env: NodeJS.ProcessEnv = process.env, commandOptions: CommandServerOptions = {}): Promise<RunningGateway> {
  // what to relay is checked before anything opens: a setting that cannot work stops the start
  const relaySettings = relaySettingsFrom(env[RELAY_ENV]);
  const relayCursors = relaySettings && (relaySettings.targets.length > 0 || relaySettings.ai) ? new RelayCursors(relayCursorsPath(options.state)) : undefined;
  const memos = relaySettings?.commands ? new Memos(join(dirname(options.state), 'memos.json')) : undefined;
  // the service's calls end on it: one it leaves unanswered must not hold the stop for the client's whole timeout
  const stopping = new AbortController();
  const key = relaySettings && new ServiceKey({ endpoint: relaySettings.endpoint, token: relaySettings.token, configFile: relaySettings.configFile, needs: scopeNeededBy(relaySettings), stop: stopping.signal }, log);
  const backend = await openGraphBackend(options.graph);
  const queryToken = newAccessToken();
  let server: KnowledgeServer | undefined;
  let commandServer: CommandServer | undefined;
  try {
    const status = await backend.status();
    server = await startKnowledgeServer({
      backend,
      port: options.port,
      token: queryToken,
      view: true,
      service: GATEWAY_SERVICE,
      onError: (error, path) => log(`error: GET ${path} failed: ${messageOf(error)}`),
    });
    const relays = relaySettings && relayCursors ? [...relaySettings.targets.map(relayName), ...(relaySettings.ai ? [aiReplyName(relaySettings.ai)] : [])] : [];
    if (relaySettings?.commands && memos && key) {
      commandServer = await startCommandServer(relaySettings.commands, new TeamCommands(() => key.inUse().client, memos, log), log, commandOptions);
    }
    log(`gateway started: pid ${process.pid}, query API and view on ${server.url} (its token in ${options.state}), ${describeGraph(options.graph, status)}`);
    if (commandServer && relaySettings?.commands) log(`team-chat commands (${relaySettings.commands.type}) on ${commandServer.url}`);
    writeState(options.state, { pid: process.pid, port: server.port, graph: options.graph, startedAt: new Date().toISOString(), relays, ...(commandServer && { commandsUrl: commandServer.url }), queryToken });
  } catch (error) {
    await commandServer?.close();
    await server?.close();
    await backend.close();
    if (error instanceof KnowledgeApiError && error.code === 'PORT_IN_USE') {
      throw new Error(`${error.message} Is a gateway already running? Otherwise stop that program or choose another port (\`brandwire setup <key> --query-port <n>\`).`);
    }
    throw error;
  }
  const listening = server;
  const commandsListening = commandServer;
  const relay: RunningRelay | undefined = relaySettings && key && relayCursors ? startRelay(relaySettings, key, relayCursors, log) : undefined;
  const unguard = guardMemory(options.memoryLimitMb, (rssMb) => {
    log(`error: the gateway uses ${rssMb} MB, over its limit of ${options.memoryLimitMb} MB (a query building a huge list, such as UNWIND range(1, 100000000)); stopping before the machine runs out of memory`);
    removeState(options.state, process.pid);
    // not process.exit: that waits for Kuzu's running query, which goes on taking memory until it finishes
    process.kill(process.pid, 'SIGKILL');
  });
  return {
    port: listening.port,
    stop: async () => {
      unguard();
      // the relay is told first: an AI reply whose call the stop cuts short then finds the relay stopping, and keeps
      // no cursor past a message it did not answer
      const relayStopped = relay?.stop();
      // no knowledge query is taken from now on: the graph is closed only once those taken are done, and one taken
      // while the commands under way are waited for could hold the stop past its bound
      const knowledgeClosed = listening.close();
      try {
        // before the service's calls are cut: the commands under way get a few seconds to be answered, and whoever
        // still waits then is told that the gateway stopped, not that the command failed
        try {
          await commandsListening?.close();
        } finally {
          stopping.abort();
        }
        await relayStopped;
        await knowledgeClosed;
        await backend.close();
      } finally {
        removeState(options.state, process.pid);
      }
    },
  };
}

/** Where the relay keeps the last event relayed of each channel: beside the state file. */
export function relayCursorsPath(statePath: string): string {
  return join(dirname(statePath), 'relay-cursors.json');
}
