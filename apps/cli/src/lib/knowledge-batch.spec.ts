import type { BatchReport, QueryResultJson } from '@brandwire/knowledge';
import type { KnowledgeBackend } from '@brandwire/knowledge-web';
import { batchFailure, readOnlyBatch } from './knowledge-batch';
import { WRITE_HINT } from './knowledge-errors';

/** A backend whose cypher() answers from a table of statements; any other statement fails as the database would. */
function backendOf(answers: Record<string, QueryResultJson>, asked: string[] = []): KnowledgeBackend {
  const never = (): Promise<never> => Promise.reject(new Error('not used'));
  return {
    cypher: (q) => {
      asked.push(q);
      const answer = answers[q];
      return answer ? Promise.resolve(answer) : Promise.reject(new Error(`Binder exception: ${q} failed`));
    },
    status: never,
    search: never,
    graph: never,
    close: () => Promise.resolve(),
  };
}

const ONE: QueryResultJson = { columns: ['n'], types: ['INT64'], rows: [[1]] };
const TWO: QueryResultJson = { columns: ['n'], types: ['INT64'], rows: [[1], [2]] };

describe('readOnlyBatch', () => {
  it('reports each statement with its row count', async () => {
    const report = await readOnlyBatch(backendOf({ a: ONE, b: TWO }), ['a', 'b'], false);
    expect(report).toEqual({
      ok: true,
      lines: ['#1 ok (1 row)', '#2 ok (2 rows)'],
      statements: [
        { index: 1, statement: 'a', ok: true, result: ONE },
        { index: 2, statement: 'b', ok: true, result: TWO },
      ],
    });
  });

  it('stops at a failure and skips the rest', async () => {
    const asked: string[] = [];
    const report = await readOnlyBatch(backendOf({ a: ONE, c: ONE }, asked), ['a', 'b', 'c'], false);
    expect(report.ok).toBe(false);
    expect(report.lines).toEqual(['#1 ok (1 row)', '#2 FAILED: Binder exception: b failed', '#3 skipped']);
    expect(report.statements[2]).toEqual({ index: 3, statement: 'c', ok: false, error: 'skipped after an earlier failure' });
    expect(asked).toEqual(['a', 'b']);
  });

  it('goes on after a failure when asked to, still failing the batch', async () => {
    const report = await readOnlyBatch(backendOf({ a: ONE, c: ONE }), ['a', 'b', 'c'], true);
    expect(report.ok).toBe(false);
    expect(report.lines).toEqual(['#1 ok (1 row)', '#2 FAILED: Binder exception: b failed', '#3 ok (1 row)']);
  });

  it('puts a long or multi-line message on one line', async () => {
    const backend = { ...backendOf({}), cypher: () => Promise.reject(new Error(`line one\n  line two ${'x'.repeat(300)}`)) };
    const [line] = (await readOnlyBatch(backend, ['a'], false)).lines;
    expect(line).toMatch(/^#1 FAILED: line one line two x+…$/);
    expect(line?.length).toBe('#1 FAILED: '.length + 200);
  });
});

describe('batchFailure', () => {
  const EMPTY: QueryResultJson = { columns: [], types: [], rows: [] };

  it('names each failed statement, and the read-only refusal with the --write hint when the batch ran without it', () => {
    const report = {
      ok: false,
      statements: [
        { index: 1, statement: 'a', ok: true, result: ONE },
        { index: 2, statement: "CREATE (:Note {id: 'x'})", ok: false, error: 'Connection exception: Cannot execute write operations in a read-only database!' },
        { index: 3, statement: 'c', ok: false, error: 'skipped after an earlier failure' },
      ],
      lines: ['#1 ok (1 row)', '#2 FAILED: Connection exception: Cannot execute write operations in a read-only database!', '#3 skipped'],
    };
    const error = batchFailure(report, false);
    expect(error).toMatchObject({ code: 'BAD_QUERY', exit: 1, message: '#2 FAILED: Connection exception: Cannot execute write operations in a read-only database!', hint: WRITE_HINT });
    expect(error.details).toEqual({ statements: report.statements, lines: report.lines });
    expect(batchFailure(report, true).hint).toBeUndefined();
  });

  it('says that a write batch ended inside its transaction and its writes were rolled back, with what to do', () => {
    const rolledBack = 'the batch ended inside the transaction #1 began (BEGIN TRANSACTION without COMMIT): its writes were rolled back';
    const report: BatchReport = {
      ok: false,
      statements: [
        { index: 1, statement: 'BEGIN TRANSACTION', ok: true, rolledBack: true, result: EMPTY },
        { index: 2, statement: "CREATE (:Note {id: 'c'})", ok: true, rolledBack: true, result: EMPTY },
      ],
      lines: ['#1 ran, rolled back (0 rows)', '#2 ran, rolled back (0 rows)', `FAILED: ${rolledBack}`],
    };
    expect(batchFailure(report, true)).toMatchObject({ code: 'BAD_QUERY', exit: 1, message: rolledBack, hint: 'end the batch with COMMIT to keep what it writes' });
  });
});
