import type { GatewayStartResult, GatewayStatusResult, GatewayStopResult } from './gateway-control';
import { fields } from './output';

export function presentStart(result: GatewayStartResult): string {
  const head = result.started ? 'Started the gateway.' : 'The gateway is already running.';
  const relays = result.relays.length > 0 ? result.relays.join(', ') : 'none (set a team-chat sink or a CRM with `brandwire setup`)';
  return `${head}\n${fields([
    ['pid', result.pid],
    ['port', result.port],
    ['relays', relays],
    ['team-chat commands', result.commandsUrl ?? 'off'],
    ['log', result.logPath],
    ['graph', result.graphPath],
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
      ['relays', result.relays.length > 0 ? result.relays.join(', ') : 'none'],
      ['team-chat commands', result.commandsUrl ?? 'off'],
      ['graph', result.graphPath],
      ['log', result.logPath],
    ]),
  ].join('\n');
}
