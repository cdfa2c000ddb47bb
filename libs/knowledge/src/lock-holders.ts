/**
 * Holder files: Kuzu refuses a second process with only "Could not set lock on file", so every open graph
 * leaves `<db>.holders/<pid>-<n>.json` saying who holds it; a refused open reads them to name the holder.
 * Kuzu's lock is per process, so a second open inside one process is refused here, before Kuzu.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeHolder, type GraphHolder, KnowledgeGraphError } from './errors';

const openHere = new Map<string, GraphHolder[]>();
let counter = 0;

export function holdersDir(dbPath: string): string {
  return `${dbPath}.holders`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function isHolder(x: unknown): x is GraphHolder {
  const h = x as Partial<GraphHolder> | null;
  return typeof h?.pid === 'number' && typeof h.description === 'string' && typeof h.readOnly === 'boolean' && typeof h.since === 'string';
}

/** The live holders recorded for a graph; files of processes that are gone are removed. */
export function readHolders(dbPath: string): GraphHolder[] {
  const dir = holdersDir(dbPath);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  const holders: GraphHolder[] = [];
  for (const name of names) {
    const file = join(dir, name);
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (isHolder(parsed) && isAlive(parsed.pid)) holders.push(parsed);
      else if (isHolder(parsed)) rmSync(file, { force: true });
    } catch {
      // being written or removed by its owner right now: skip it
    }
  }
  return holders;
}

export function lockedError(dbPath: string, holders: readonly GraphHolder[], wantReadOnly: boolean): KnowledgeGraphError {
  const who = holders.length > 0 ? holders.map(describeHolder).join(', ') : 'another process (it left no holder file)';
  const rule = wantReadOnly
    ? 'readers can share it, but not with a process that writes'
    : 'only one process can open it for writing, and not while others read it';
  return new KnowledgeGraphError('GRAPH_LOCKED', `The knowledge graph at ${dbPath} is in use by ${who}: ${rule}. Stop that process or try again when it is done.`, holders);
}

/** Refuses an open that conflicts with one of this process's own open graphs; else registers it. */
export function claimInProcess(dbPath: string, holder: GraphHolder): void {
  const current = openHere.get(dbPath) ?? [];
  const conflicts = holder.readOnly ? current.filter((h) => !h.readOnly) : current;
  if (conflicts.length > 0) throw lockedError(dbPath, conflicts, holder.readOnly);
  openHere.set(dbPath, [...current, holder]);
}

export function releaseInProcess(dbPath: string, holder: GraphHolder): void {
  const rest = (openHere.get(dbPath) ?? []).filter((h) => h !== holder);
  if (rest.length > 0) openHere.set(dbPath, rest);
  else openHere.delete(dbPath);
}

/** Writes this process's holder file, removing those of processes that are gone; returns its path for removal at close. */
export function writeHolderFile(dbPath: string, holder: GraphHolder): string {
  const dir = holdersDir(dbPath);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  readHolders(dbPath);
  counter += 1;
  const file = join(dir, `${holder.pid}-${counter}.json`);
  writeFileSync(file, `${JSON.stringify(holder)}\n`);
  return file;
}

export function removeHolderFile(file: string): void {
  rmSync(file, { force: true });
}
