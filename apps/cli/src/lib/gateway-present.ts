import type { GatewayStartResult, GatewayStatusResult, GatewayStopResult } from './gateway-control';
import { fields } from './output';

/** Only the state file says what a gateway relays: one found by its command line does not tell. */
const UNKNOWN = 'unknown (its state file is damaged or gone)';

function relaysText(relays: string[] | undefined, none: string): string {
  if (relays === undefined) return UNKNOWN;
  return relays.length > 0 ? relays.join(', ') : none;
}

const VIEW_UNKNOWN = 'unknown (its state file, which holds its token, is damaged or gone: `brandwire gateway restart` makes a new one)';

function commandsText(commandsUrl: string | null | undefined): string {
  return commandsUrl === undefined ? UNKNOWN : (commandsUrl ?? 'off');
}

export function presentStart(result: GatewayStartResult): string {
  const head = result.started ? 'Started the gateway.' : 'The gateway is already running.';
  return `${head}\n${fields([
    ['pid', result.pid],
    ['port', result.port],
    ['relays', relaysText(result.relays, 'none (set a team-chat sink or a CRM with `brandwire setup`)')],
    ['team-chat commands', commandsText(result.commandsUrl)],
    ['log', result.logPath],
    ['graph', result.graphPath],
    ['view', result.viewUrl ?? VIEW_UNKNOWN],
  ])}`;
}

export function presentStop(result: GatewayStopResult): string {
  if (!result.stopped) return 'The gateway is not running.';
  return `Stopped the gateway (pid ${result.pid ?? '?'}${result.killed ? ', killed: it had not exited when --timeout passed after SIGTERM, as when a long query is still running' : ''}).`;
}

function duration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return h > 0 ? `${h} h ${m} min` : m > 0 ? `${m} min ${s} s` : `${s} s`;
}

export function presentStatus(result: GatewayStatusResult): string {
  if (!result.running) return `The gateway is not running.\n${fields([['port', result.port], ['graph', result.graphPath], ['log', result.logPath]])}`;
  return [
    'The gateway is running.',
    fields([
      ['pid', result.pid],
      ['port', `${result.port}${result.answers ? '' : ' (its query API did not answer just now)'}`],
      ['uptime', result.uptimeSeconds === null ? null : duration(result.uptimeSeconds)],
      ['relays', relaysText(result.relays, 'none')],
      ['team-chat commands', commandsText(result.commandsUrl)],
      ['graph', result.graphPath],
      ['log', result.logPath],
      ['view', result.viewUrl ?? VIEW_UNKNOWN],
    ]),
  ].join('\n');
}
