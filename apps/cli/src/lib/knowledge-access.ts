import type { KnowledgeGraph } from '@brandwire/knowledge';
import type { KnowledgeBackend } from '@brandwire/knowledge-web';
import { existsSync } from 'node:fs';
import { CliError } from './cli-error';
import type { Session } from './config-store';
import { knowledgeGraphPath } from './data-dir';
import { EXIT } from './exit-codes';
import { runningGateway } from './gateway-control';
import { gatewayOnPort } from './gateway-process';
import { readGatewayState } from './gateway-state';
import { STOP_GATEWAY_HINT, knowledgeFailure } from './knowledge-errors';
import { queryPortOf } from './knowledge-settings';

/** Where a reading command reads the graph: through the running gateway's query API, or the graph opened here. */
export interface KnowledgeReader {
  backend: KnowledgeBackend;
  via: 'gateway' | 'graph';
  /** the gateway's query port when `via` is gateway */
  port?: number;
  /** this config folder's gateway when it runs but its query API did not answer (hung, paused): the graph was opened beside it */
  unansweredGatewayPid?: number;
  /** this config folder's gateway when it runs but its token is not known (its state file is damaged or gone): the graph was opened beside it */
  tokenlessGatewayPid?: number;
}

/** `brandwire knowledge <command>`: the holder name other processes see while this one has the graph open. */
export function holderOf(command: string): string {
  return `brandwire knowledge ${command}`;
}

/**
 * status, search, view and read-only query: through this config folder's gateway when it runs and answers to the
 * token in its state file (it holds the graph then), else the graph opened read-only in this process. A gateway
 * of another config folder or user takes only the token in its own state file: a folder without a graph of its
 * own whose query port such a gateway holds is told so, rather than finding no graph.
 */
export async function openReader(command: string, session: Session): Promise<KnowledgeReader> {
  const { gatewayBackend, graphBackend, probeGateway } = await import('@brandwire/knowledge-web');
  const gateway = runningGateway();
  const token = gateway?.queryToken;
  if (gateway && token !== undefined && (await probeGateway(gateway.port, token)) === 'answers') {
    return { backend: gatewayBackend(gateway.port, token), via: 'gateway', port: gateway.port };
  }
  if (!gateway && !existsSync(knowledgeGraphPath())) {
    const port = queryPortOf(session.config);
    if ((await probeGateway(port, undefined)) === 'refuses-token') throw anotherGatewayOn(port);
  }
  // the gateway holds the graph read-only, so a read-only open here succeeds beside it
  const graph = await openGraph(command, { readOnly: true });
  const beside = gateway && (token === undefined ? { tokenlessGatewayPid: gateway.pid } : { unansweredGatewayPid: gateway.pid });
  return { backend: graphBackend(graph), via: 'graph', ...beside };
}

function anotherGatewayOn(port: number): CliError {
  const other = gatewayOnPort(port);
  const which = other ? `the gateway of another config folder (pid ${other.pid}, state file ${other.statePath})` : 'a gateway of another config folder or another user';
  return new CliError(
    'GATEWAY_UNAUTHORIZED',
    `this config folder has no knowledge graph of its own, and ${which} answers on its query port ${port}: that gateway takes only the access token in its own state file`,
    EXIT.error,
    { port, ...(other && { gatewayPid: other.pid, gatewayStatePath: other.statePath }) },
    "run the command with that gateway's config folder (BRANDWIRE_CONFIG_DIR), or give this folder a query port and a graph of its own (`brandwire setup <key> --query-port <n>`, `brandwire knowledge install`, `brandwire knowledge build`)",
  );
}

/**
 * The graph opened in this process; for writing unless `readOnly`. Never through the gateway: a writer needs it
 * stopped, and a refusal (GRAPH_LOCKED) says so when the gateway is the holder. Only `install` creates the graph
 * (`create`): any other command finds none as GRAPH_MISSING and leaves no empty graph behind.
 */
export async function openGraph(command: string, options: { readOnly?: boolean; create?: boolean } = {}): Promise<KnowledgeGraph> {
  // a gateway holding the graph locks it (the library refuses then); one started before the graph existed holds
  // no lock, and would go on serving no graph whatever is written now
  const gatewayWithoutGraph = options.readOnly !== true && !existsSync(knowledgeGraphPath()) ? runningGateway() : undefined;
  if (gatewayWithoutGraph) {
    throw new CliError(
      'GRAPH_LOCKED',
      `the gateway (pid ${gatewayWithoutGraph.pid}) started before the knowledge graph existed and serves none; ${command} needs it stopped`,
      EXIT.error,
      { gatewayPid: gatewayWithoutGraph.pid },
      STOP_GATEWAY_HINT,
    );
  }
  const { KnowledgeGraph } = await import('@brandwire/knowledge');
  try {
    return await KnowledgeGraph.open(knowledgeGraphPath(), { readOnly: options.readOnly === true, create: options.create === true, holder: holderOf(command) });
  } catch (error) {
    throw knowledgeFailure(error, readGatewayState()?.pid);
  }
}

/** Runs `work` and closes what it used, also when it failed; knowledge failures become the tool's errors. */
export async function closing<R extends { close(): Promise<void> }, T>(resource: R, work: (r: R) => Promise<T>): Promise<T> {
  try {
    return await work(resource);
  } catch (error) {
    throw knowledgeFailure(error, readGatewayState()?.pid);
  } finally {
    await resource.close();
  }
}
