/** Text output for people: tables, timestamps with the year, colour only on a terminal and never with NO_COLOR. */

import { shownControls } from './terminal-text';

type Env = Record<string, string | undefined>;

export function colorEnabled(stream: { isTTY?: boolean } = process.stdout, env: Env = process.env): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  return stream.isTTY === true && env['TERM'] !== 'dumb';
}

const CODES = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39] } as const;
export type Style = keyof typeof CODES;

export function paint(text: string, style: Style, enabled = colorEnabled()): string {
  if (!enabled) return text;
  const [open, close] = CODES[style];
  return `\u001b[${open}m${text}\u001b[${close}m`;
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Local time with the year and the UTC offset: 2025-11-21 17:52:03 +09:00. */
export function formatTimestamp(unixMs: number, timeZoneOffsetMinutes = -new Date(unixMs).getTimezoneOffset()): string {
  const local = new Date(unixMs + timeZoneOffsetMinutes * 60_000);
  const sign = timeZoneOffsetMinutes < 0 ? '-' : '+';
  const offset = Math.abs(timeZoneOffsetMinutes);
  const date = `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}`;
  const time = `${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}`;
  return `${date} ${time} ${sign}${pad(Math.floor(offset / 60))}:${pad(offset % 60)}`;
}

/** An ISO 8601 time from the service (in the service's offset) as formatTimestamp shows every time: local. */
export function formatIsoTimestamp(iso: string, timeZoneOffsetMinutes?: number): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(iso)) return iso;
  const unixMs = Date.parse(iso);
  return Number.isNaN(unixMs) ? iso : formatTimestamp(unixMs, timeZoneOffsetMinutes);
}

/** One line, at most `width` characters: newlines shown as ⏎, other control characters as signs, the rest cut with an ellipsis. */
export function oneLine(text: string, width = 60): string {
  const flat = shownControls(text.replace(/\r?\n/g, ' ⏎ ').replace(/\t/g, ' '));
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/** A table with a header row (cli-table3, loaded only when a table is printed). */
export async function table(head: string[], rows: Array<Array<string | number | boolean>>, enabled = colorEnabled()): Promise<string> {
  const { default: Table } = await import('cli-table3');
  const t = new Table({
    head: head.map((h) => paint(h, 'bold', enabled)),
    style: { head: [], border: [], compact: true },
    chars: { mid: '', 'left-mid': '', 'mid-mid': '', 'right-mid': '' },
  });
  for (const row of rows) t.push(row.map(String));
  return t.toString();
}

/** key: value lines, keys aligned. */
export function fields(pairs: Array<[string, string | number | boolean | null | undefined]>, enabled = colorEnabled()): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${paint(`${k}:`.padEnd(width + 1), 'dim', enabled)} ${v === null || v === undefined ? '-' : String(v)}`).join('\n');
}
