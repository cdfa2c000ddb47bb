import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** What `brandwire gateway start|status|stop` read to find the running gateway and tell what it does. */
export interface GatewayState {
  pid: number;
  port: number;
  graph: string;
  /** ISO 8601 */
  startedAt: string;
  /** what it relays signals to: "team chat (slack)", "CRM" */
  relays: string[];
  /** where it takes the team chat's commands, when it does */
  commandsUrl?: string;
  /** the access token of its query API and page, new at each start: the file is the user's own (0600) */
  queryToken: string;
}

/** Written to a temporary file and renamed, so a reader never sees half a file; only its user may read it (the token). */
export function writeState(file: string, state: GatewayState): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${state.pid}.tmp`;
  // the mode applies only to a file created here: not to one an earlier process of this pid left
  rmSync(temporary, { force: true });
  writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600 });
  renameSync(temporary, file);
}

/** Removes the state file when it is this process's (a newer gateway may have replaced it). */
export function removeState(file: string, pid: number): void {
  try {
    const state = JSON.parse(readFileSync(file, 'utf8')) as Partial<GatewayState>;
    if (state.pid !== pid) return;
  } catch {
    return;
  }
  rmSync(file, { force: true });
}
