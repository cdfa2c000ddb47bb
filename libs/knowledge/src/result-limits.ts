/** The most one query answers, and the most the statements of one batch answer together. */

/** The most rows one query (or batch) answers: a result larger than this is refused, not read into memory. */
export const MAX_RESULT_ROWS = 100_000;

/**
 * The most one query (or batch) answers as JSON (estimated while its rows are read): a result larger than this is
 * refused, not read on. Reading, converting and serialising a result takes several times its size (the binding's
 * rows, the JSON rows, the JSON text): at 64 MB a query stays far below the gateway's memory limit (2 GB by
 * default) and below the longest string V8 can make (512 MB), which `JSON.stringify` of a larger result would exceed.
 */
export const MAX_RESULT_BYTES = 64 * 1024 * 1024;

/** "64 MB" */
export function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024)).toLocaleString('en-US')} MB`;
}
