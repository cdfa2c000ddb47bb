import { runBatch } from './batch-report';
import { KnowledgeGraphError } from './errors';
import type { QueryResultJson } from './types';

/** A result of `count` rows of one string of `length` characters: what a statement answers through the gateway's query API. */
function resultOf(count: number, length = 1): QueryResultJson {
  return { columns: ['s'], types: ['STRING'], rows: Array.from({ length: count }, () => ['s'.repeat(length)]) };
}

describe('runBatch', () => {
  it('holds the statements of a batch to 64 MB as JSON in all, however each statement was read', async () => {
    // 2,500 rows of 10,000 characters: 25 MB each
    const report = await runBatch(['#1', '#2', '#3', '#4'], true, (statement) => Promise.resolve(statement === '#4' ? resultOf(1) : resultOf(2500, 10_000)));
    expect(report.lines).toEqual([
      '#1 ok (2500 rows)',
      '#2 ok (2500 rows)',
      "#3 FAILED: It ran, but its result is not shown: it takes the batch over the 64 MB a batch may answer in all as JSON (its writes stay unless rolled back): add LIMIT, or run smaller batches.",
      '#4 ok (1 row)',
    ]);
    expect(report.ok).toBe(false);
    expect(report.statements[2]).toEqual({ index: 3, statement: '#3', ok: false, error: expect.stringContaining('64 MB') as unknown });
  });

  it('holds the statements of a batch to 100,000 rows in all, and stops there without continueOnError', async () => {
    const report = await runBatch(['a', 'b', 'c'], false, () => Promise.resolve(resultOf(50_000)));
    expect(report.lines).toEqual([
      '#1 ok (50000 rows)',
      '#2 ok (50000 rows)',
      "#3 FAILED: It ran, but its result is not shown: it takes the batch to 150,000 rows, over the 100,000 a batch may answer in all (its writes stay unless rolled back): add LIMIT, or run smaller batches.",
    ]);
  });

  it('refuses a batch using a $parameter before running any of it, naming the parameters', async () => {
    const ran: string[] = [];
    const run = (statement: string): Promise<QueryResultJson> => {
      ran.push(statement);
      return Promise.resolve(resultOf(1));
    };
    await expect(runBatch(['RETURN 1', "RETURN $p, '$not' // $nor", 'RETURN $p'], false, run)).rejects.toEqual(new KnowledgeGraphError('MISSING_PARAMETER', 'Missing query parameter: $p'));
    expect(ran).toEqual([]);
  });
});
