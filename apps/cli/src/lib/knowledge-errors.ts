import type { GraphHolder } from '@brandwire/knowledge';
import { CliError } from './cli-error';
import { EXIT, type ExitCode } from './exit-codes';

/**
 * Failures of the knowledge graph (KnowledgeGraphError of @brandwire/knowledge) and of the query backends
 * (KnowledgeApiError of @brandwire/knowledge-web, which keeps the graph's codes and adds its own), read by their
 * shape so that neither library is loaded for it.
 */
interface CodedError extends Error {
  name: 'KnowledgeGraphError' | 'KnowledgeApiError';
  code: string;
  holders?: readonly GraphHolder[];
}

function isCodedError(error: unknown): error is CodedError {
  return error instanceof Error && (error.name === 'KnowledgeGraphError' || error.name === 'KnowledgeApiError') && typeof (error as Partial<CodedError>).code === 'string';
}

export const STOP_GATEWAY_HINT = 'run `brandwire gateway stop` first, then this command again';
export const WRITE_HINT = 'writes and DDL need `brandwire knowledge query --write` (with the gateway stopped)';
const INSTALL_HINT = 'run `brandwire knowledge install`, then `brandwire knowledge build`';
/** While the gateway runs it holds the graph (or serves none, when started before it existed): install and build need it stopped. */
export const INSTALL_WITH_GATEWAY_HINT =
  'run `brandwire gateway stop`, then `brandwire knowledge install` and `brandwire knowledge build`, then `brandwire gateway start`';

/**
 * GRAPH_NEEDS_REPAIR: its message, the library's for every reader of the graph (the gateway's query API and its
 * page too), says to repair it with install, the gateway stopped. While the gateway runs, the hint adds its restart.
 */
export const REPAIR_WITH_GATEWAY_HINT = 'run `brandwire gateway stop` before the install, and `brandwire gateway start` after it';

/** How the database words a refused write; the query text itself is never read to decide what it may do. */
export function isReadOnlyRefusal(message: string): boolean {
  return /read[- ]only/i.test(message);
}

/** Who holds the graph, by its holder files: the gateway (its description, or the pid in its state file) or another process. */
function lockedHint(holders: readonly GraphHolder[], gatewayPid: number | undefined): string {
  if (holders.some((h) => h.pid === gatewayPid || /gateway/i.test(h.description))) return STOP_GATEWAY_HINT;
  return 'wait until that process is done (or stop it), then run this command again';
}

function hintFor(error: CodedError, gatewayPid: number | undefined): string | undefined {
  switch (error.code) {
    case 'GRAPH_LOCKED':
      return lockedHint(error.holders ?? [], gatewayPid);
    case 'GRAPH_MISSING':
    case 'NOT_INSTALLED':
      return gatewayPid === undefined ? INSTALL_HINT : INSTALL_WITH_GATEWAY_HINT;
    case 'GRAPH_NEEDS_REPAIR':
      return gatewayPid === undefined ? undefined : REPAIR_WITH_GATEWAY_HINT;
    case 'READ_ONLY':
      return WRITE_HINT;
    case 'BAD_QUERY':
      return isReadOnlyRefusal(error.message) ? WRITE_HINT : undefined;
    case 'MISSING_PARAMETER':
      return 'write the value into the statement: the tool passes no parameters';
    case 'NATIVE_UNAVAILABLE':
      return 'the graph database (the kuzu package) comes with the tool: reinstall the tool on this platform';
    case 'UNAUTHORIZED':
      return 'the gateway has a new token since this command read its state file (it was restarted): run the command again';
    case 'GATEWAY_UNAVAILABLE':
      return '`brandwire gateway status` shows the gateway; `brandwire gateway restart` restarts it';
    case 'PORT_IN_USE':
      return 'pass another --port, or --port 0 for any free port';
    default:
      return undefined;
  }
}

function exitFor(code: string): ExitCode {
  return code === 'MISSING_PARAMETER' ? EXIT.usage : EXIT.error;
}

/**
 * A failure of the knowledge graph or of its query backends as the tool reports it (the library's code, exit
 * code, a hint); anything else as it is. `gatewayPid`, the pid in the gateway's state file, tells the gateway
 * from other holders of the graph.
 */
export function knowledgeFailure(error: unknown, gatewayPid?: number): unknown {
  if (!isCodedError(error)) return error;
  const details: Record<string, unknown> = {};
  if (error.holders && error.holders.length > 0) {
    details['holders'] = error.holders.map((h) => ({ pid: h.pid, description: h.description, readOnly: h.readOnly, since: h.since }));
  }
  return new CliError(error.code, error.message, exitFor(error.code), details, hintFor(error, gatewayPid));
}
