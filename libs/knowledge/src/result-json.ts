/**
 * Kuzu values as JSON: numbers and booleans stay JSON numbers and booleans, bigints (INT128) beyond 2^53
 * become strings, dates ISO strings, nodes and relations plain objects with `_id`/`_label` (`_src`/`_dst`).
 * The Node binding reads INT64/UINT64 into doubles, so an integer beyond 2^53 arrives rounded: `hasLossyInteger`
 * spots that so the caller can read the exact digits another way (see exact-result.ts).
 */
import type { KuzuValue } from './kuzu-native';
import type { JsonValue } from './types';

const FLOAT_TYPE = /^(DOUBLE|FLOAT|DECIMAL)/;

/** A Date from any realm: the native module makes its dates in the main context, not in a vm (Jest) one. */
export function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

function isInternalId(v: unknown): v is { offset: number; table: number } {
  return typeof v === 'object' && v !== null && typeof (v as { offset?: unknown }).offset === 'number' && typeof (v as { table?: unknown }).table === 'number';
}

function dateText(d: Date, type: string | undefined): string {
  if (Number.isNaN(d.getTime())) return 'invalid date';
  return type === 'DATE' ? d.toISOString().slice(0, 10) : d.toISOString();
}

/**
 * About how many characters `value` takes as JSON, cheaply: string lengths, a few characters a number, date or
 * internal id, and the brackets, keys and commas of lists, maps, nodes and relations. Escapes are not counted.
 */
export function estimatedJsonSize(value: KuzuValue | undefined): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 5;
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number' || typeof value === 'bigint') return 12;
  if (isDate(value)) return 26;
  if (Array.isArray(value)) {
    let size = 2;
    for (const item of value) size += estimatedJsonSize(item) + 1;
    return size;
  }
  // a BLOB: base64
  if (ArrayBuffer.isView(value)) return Math.ceil(value.byteLength / 3) * 4 + 2;
  // an internal id ({offset, table}) prints as "table:offset"
  if (isInternalId(value) && Object.keys(value).length === 2) return 12;
  let size = 2;
  for (const [key, v] of Object.entries(value as Record<string, KuzuValue>)) size += key.length + 4 + estimatedJsonSize(v);
  return size;
}

/** About how many characters a row takes as JSON: a list of its values, each with its comma. */
export function estimatedRowSize(values: Iterable<KuzuValue | undefined>): number {
  let size = 2;
  for (const value of values) size += estimatedJsonSize(value) + 1;
  return size;
}

/** One value; `type` is the column's Kuzu type (only used at the top level). */
export function toJsonValue(value: KuzuValue | undefined, type?: string): JsonValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
  }
  if (isDate(value)) return dateText(value, type);
  if (Array.isArray(value)) return value.map((v) => toJsonValue(v));
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  const out: Record<string, JsonValue> = {};
  for (const [key, v] of Object.entries(value as Record<string, KuzuValue>)) {
    out[key] = isInternalId(v) && (key === '_id' || key === '_src' || key === '_dst') ? `${v.table}:${v.offset}` : toJsonValue(v);
  }
  return out;
}

function lossy(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value);
  if (value === null || typeof value !== 'object' || isDate(value)) return false;
  return Object.values(value).some(lossy);
}

/** The columns whose values hold an integer beyond 2^53 that a double could not keep exactly. */
export function lossyColumns(columns: readonly string[], types: readonly string[], rows: readonly Record<string, KuzuValue>[]): string[] {
  return columns.filter((column, i) => !FLOAT_TYPE.test(types[i] ?? '') && rows.some((row) => lossy(row[column])));
}

/** Rows of the binding as JSON arrays in column order. */
export function toJsonRows(columns: readonly string[], types: readonly string[], rows: readonly Record<string, KuzuValue>[]): JsonValue[][] {
  return rows.map((row) => columns.map((column, i) => toJsonValue(row[column], types[i])));
}

/** In the given columns, integers a double could not hold as strings of the double's digits (the result says `inexact`). */
export function markInexact(rows: JsonValue[][], columnIndexes: readonly number[]): JsonValue[][] {
  const mark = (v: JsonValue): JsonValue => {
    if (typeof v === 'number') return Number.isInteger(v) && !Number.isSafeInteger(v) ? BigInt(v).toString() : v;
    if (Array.isArray(v)) return v.map(mark);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mark(x)]));
    return v;
  };
  return rows.map((row) => row.map((v, i) => (columnIndexes.includes(i) ? mark(v) : v)));
}
