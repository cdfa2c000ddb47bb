/**
 * Just enough Cypher lexing to split a batch on `;` and to find the `$parameters` a statement uses,
 * skipping string literals ('...', "..."), escaped names (`...`) and comments (// and /* *\/).
 * What a statement may do is the database's to enforce (read-only opening, read-only transactions), but for the
 * statements that reach beyond the graph, which its read-only mode lets through: see `leadingKeyword`.
 */

interface Scan {
  /** statement texts, trimmed, empty ones dropped */
  statements: string[];
  /** `$name` parameters per statement, same order */
  parameters: string[][];
}

const PARAM_START = /[A-Za-z_]/;
const PARAM_PART = /[A-Za-z0-9_]/;

function endOfQuoted(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && quote !== '`') i++;
    else if (ch === quote) {
      if (quote === '`' && text[i + 1] === '`') i++;
      else return i + 1;
    }
  }
  return text.length;
}

function scan(text: string): Scan {
  const statements: string[] = [];
  const parameters: string[][] = [];
  let begin = 0;
  let params: string[] = [];
  const finish = (end: number): void => {
    const statement = text.slice(begin, end).trim();
    if (statement !== '') {
      statements.push(statement);
      parameters.push([...new Set(params)]);
    }
    params = [];
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "'" || ch === '"' || ch === '`') {
      i = endOfQuoted(text, i, ch);
    } else if (ch === '/' && text[i + 1] === '/') {
      const newline = text.indexOf('\n', i);
      i = newline < 0 ? text.length : newline + 1;
    } else if (ch === '/' && text[i + 1] === '*') {
      const close = text.indexOf('*/', i + 2);
      i = close < 0 ? text.length : close + 2;
    } else if (ch === '$' && PARAM_START.test(text[i + 1] ?? '')) {
      let j = i + 2;
      while (j < text.length && PARAM_PART.test(text[j])) j++;
      params.push(text.slice(i + 1, j));
      i = j;
    } else if (ch === ';') {
      finish(i);
      begin = i + 1;
      i++;
    } else {
      i++;
    }
  }
  finish(text.length);
  return { statements, parameters };
}

/** "a; b; c" as ["a", "b", "c"]; semicolons inside strings, escaped names and comments do not split. */
export function splitStatements(text: string): string[] {
  return scan(text).statements;
}

/** The distinct `$name` parameters used by one statement (or a whole batch). */
export function parameterNames(statement: string): string[] {
  return [...new Set(scan(statement).parameters.flat())];
}

/** Words that run the statement after them (PROFILE runs it; EXPLAIN only plans it, but is read the same way). */
const PREFIXES = new Set(['PROFILE', 'EXPLAIN']);

/**
 * The word that says what the statement does, upper-cased: its first word after white space and comments, past a
 * leading PROFILE or EXPLAIN ('' when it starts otherwise).
 */
export function leadingKeyword(statement: string): string {
  const { word, end } = firstWord(statement, 0);
  return PREFIXES.has(word) ? firstWord(statement, end).word : word;
}

/** Statements that end the open transaction (the _SKIP_CHECKPOINT forms leave the WAL for later). */
const TRANSACTION_ENDS = new Set(['COMMIT', 'ROLLBACK', 'COMMIT_SKIP_CHECKPOINT', 'ROLLBACK_SKIP_CHECKPOINT']);

/**
 * What a statement does to the transaction of its batch: begins one (`BEGIN TRANSACTION [READ ONLY]`), ends it, or
 * neither. By its very first word: `EXPLAIN COMMIT` only plans a commit.
 */
export function transactionStep(statement: string): 'begin' | 'begin read-only' | 'end' | undefined {
  const { word } = firstWord(statement, 0);
  if (word === 'BEGIN') {
    const words = keywordsOf(statement);
    return words.has('READ') && words.has('ONLY') ? 'begin read-only' : 'begin';
  }
  return TRANSACTION_ENDS.has(word) ? 'end' : undefined;
}

/**
 * Whether a statement that leads with CALL calls a function (`CALL show_tables() RETURN *`) rather than
 * changing a setting of the connection (`CALL timeout=1`).
 */
export function callsFunction(statement: string): boolean {
  let { word, end } = firstWord(statement, 0);
  if (PREFIXES.has(word)) ({ word, end } = firstWord(statement, end));
  if (word !== 'CALL') return false;
  const start = skipBlank(statement, end);
  const name = /^[A-Za-z_][\w.]*/.exec(statement.slice(start));
  return name !== null && statement[skipBlank(statement, start + name[0].length)] === '(';
}

/**
 * The bare words of a statement, upper-cased, outside string literals, escaped names and comments, and not
 * property names (`n.load`): every keyword it uses, wherever it stands (`UNWIND [1] AS x LOAD FROM '…'`).
 */
export function keywordsOf(statement: string): Set<string> {
  const words = new Set<string>();
  let i = 0;
  while (i < statement.length) {
    const ch = statement[i] ?? '';
    if (ch === "'" || ch === '"' || ch === '`') {
      i = endOfQuoted(statement, i, ch);
    } else if (statement.startsWith('//', i) || statement.startsWith('/*', i)) {
      i = skipBlank(statement, i);
    } else if (/[A-Za-z_]/.test(ch)) {
      const word = /^[A-Za-z_]\w*/.exec(statement.slice(i))?.[0] ?? ch;
      if (statement[skipBlankBack(statement, i - 1)] !== '.') words.add(word.toUpperCase());
      i += word.length;
    } else if (/[0-9]/.test(ch)) {
      // a number literal only (1e5, 0x1F, 2.5): Kuzu's lexer reads `1LOAD` as 1 and LOAD, and so must this
      i += /^(?:0x[0-9a-f]+|\d+(?:\.\d+)?(?:e[+-]?\d+)?)/i.exec(statement.slice(i))?.[0].length ?? 1;
    } else {
      i++;
    }
  }
  return words;
}

/** The index of the last character at or before `from` that is not white space (-1 when there is none). */
function skipBlankBack(statement: string, from: number): number {
  let i = from;
  while (i >= 0 && /\s/.test(statement[i] ?? '')) i--;
  return i;
}

function firstWord(statement: string, from: number): { word: string; end: number } {
  const i = skipBlank(statement, from);
  const word = /^[A-Za-z]+/.exec(statement.slice(i))?.[0] ?? '';
  return { word: word.toUpperCase(), end: i + word.length };
}

/** The index of the first character at or after `from` that is not white space or inside a comment. */
function skipBlank(statement: string, from: number): number {
  let i = from;
  for (;;) {
    while (i < statement.length && /\s/.test(statement[i] ?? '')) i++;
    if (statement.startsWith('//', i)) {
      const newline = statement.indexOf('\n', i);
      i = newline < 0 ? statement.length : newline + 1;
    } else if (statement.startsWith('/*', i)) {
      const close = statement.indexOf('*/', i + 2);
      i = close < 0 ? statement.length : close + 2;
    } else {
      return i;
    }
  }
}
