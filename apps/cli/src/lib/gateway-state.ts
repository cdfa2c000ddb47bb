import { readFileSync, rmSync } from 'node:fs';
import { gatewayStatePath } from './data-dir';

/** What the running gateway's state file says of it. */
export interface GatewayState {
  pid: number;
  port: number;
  /** ISO 8601; empty when not known (a gateway found by its command line where its start time cannot be read) */
  startedAt: string;
  /** the graph file it serves */
  graph: string;
  /** what it relays signals to, as it named them (absent from a gateway of an earlier version) */
  relays?: string[];
  /** where it takes the team chat's commands, when it does */
  commandsUrl?: string;
  /** the access token of its query API and page (absent from a gateway of an earlier version, and when found by its command line) */
  queryToken?: string;
}

function isState(value: unknown): value is GatewayState {
  const s = value as Partial<GatewayState> | null;
  return typeof s?.pid === 'number' && Number.isInteger(s.pid) && s.pid > 0 && typeof s.port === 'number' && typeof s.startedAt === 'string' && typeof s.graph === 'string';
}

/** The state file's content; undefined when there is none or it is not a gateway state (half written, damaged). */
export function readGatewayState(path: string = gatewayStatePath()): GatewayState | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isState(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function removeGatewayState(path: string = gatewayStatePath()): void {
  rmSync(path, { force: true });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
