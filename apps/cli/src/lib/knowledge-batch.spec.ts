import type { QueryResultJson } from '@brandwire/knowledge';
import type { KnowledgeBackend } from '@brandwire/knowledge-web';
import { readOnlyBatch } from './knowledge-batch';

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
