/**
 * Exact integers beyond 2^53. The Node binding rounds INT64 to a double, but Kuzu's own JSON writer does not:
 * a read query is run once more as `COPY (<query>) TO '<tmp>.json'` and its file is parsed with integer
 * literals beyond 2^53 kept as strings. Only done on a graph opened read-only, where running a statement twice
 * cannot write twice.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KuzuConnection } from './kuzu-native';
import { type Params, runStatement } from './kuzu-run';
import type { JsonValue } from './types';

const NUMBER_TOKEN = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** JSON.parse, except integer literals a double cannot hold exactly come out as strings of their digits. */
export function parseJsonExact(text: string): unknown {
  let out = '';
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i++;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      NUMBER_TOKEN.lastIndex = i;
      const match = NUMBER_TOKEN.exec(text);
      const token = match?.[0] ?? ch;
      if (match !== null && match[1] === undefined && match[2] === undefined && !Number.isSafeInteger(Number(token))) {
        out += `${text.slice(from, i)}"${token}"`;
        from = i + token.length;
      }
      i += token.length;
    } else {
      i++;
    }
  }
  return JSON.parse(out + text.slice(from));
}

const KEY_NAMES: Record<string, string> = { _ID: '_id', _LABEL: '_label', _SRC: '_src', _DST: '_dst', _NODES: '_nodes', _RELS: '_rels' };

/** Kuzu's JSON names for node and relation internals, as the binding names them. */
function normalise(value: unknown): JsonValue {
  if (Array.isArray(value)) return value.map(normalise);
  if (value === null || typeof value !== 'object') return value as JsonValue;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [KEY_NAMES[k] ?? k, normalise(v)]));
}

/** Kuzu's text of an interval: `[N year(s)] [N month(s)] [N day(s)] [-]HH:MM:SS[.ffffff]`, or `00:00:00`. */
const INTERVAL_TEXT = /^(?:(-?\d+) years? ?)?(?:(-?\d+) months? ?)?(?:(-?\d+) days? ?)?(?:(-?)(\d+):(\d\d):(\d\d)(?:\.(\d{1,6}))?)?$/;
const MICROS_PER_DAY = 86_400_000_000n;

/**
 * An interval as Kuzu's JSON writer gives it ("1 day") in milliseconds, as the Node binding gives it: a month
 * is 30 days, and what is left below a millisecond is cut off (towards zero). Undefined for other text.
 */
export function intervalMilliseconds(text: string): number | undefined {
  const match = INTERVAL_TEXT.exec(text);
  if (match === null || text === '') return undefined;
  const [, years = '0', months = '0', days = '0', minus, hours = '0', minutes = '0', seconds = '0', fraction = ''] = match;
  const time = ((BigInt(hours) * 60n + BigInt(minutes)) * 60n + BigInt(seconds)) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  const micros = (BigInt(years) * 12n + BigInt(months)) * 30n * MICROS_PER_DAY + BigInt(days) * MICROS_PER_DAY + (minus === '-' ? -time : time);
  return Number(micros / 1000n);
}

function topLevel(value: JsonValue, type: string): JsonValue {
  if (typeof value !== 'string') return value;
  if (/^(DOUBLE|FLOAT|DECIMAL)/.test(type)) return Number(value);
  // the binding gives milliseconds (the rows read first); the JSON writer Kuzu's own text
  if (type === 'INTERVAL') return intervalMilliseconds(value) ?? value;
  if (type === 'TIMESTAMP') {
    const ms = Date.parse(`${value.replace(' ', 'T')}Z`);
    return Number.isNaN(ms) ? value : new Date(ms).toISOString();
  }
  return value;
}

/** Rows of `statement` read through Kuzu's JSON writer, in column order; throws when Kuzu cannot COPY it. */
export async function exactRows(conn: KuzuConnection, statement: string, columns: readonly string[], types: readonly string[], params?: Params): Promise<JsonValue[][]> {
  const dir = mkdtempSync(join(tmpdir(), 'brandwire-knowledge-'));
  const file = join(dir, 'result.json');
  try {
    const body = statement.trim().replace(/;+\s*$/, '');
    await runStatement(conn, `COPY (${body}\n) TO '${file.replaceAll("'", "\\'")}'`, params, true);
    const parsed = parseJsonExact(readFileSync(file, 'utf8'));
    if (!Array.isArray(parsed)) throw new Error('unexpected JSON from COPY TO');
    return parsed.map((row: Record<string, unknown>) => columns.map((c, i) => topLevel(normalise(row[c] ?? null), types[i] ?? '')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
