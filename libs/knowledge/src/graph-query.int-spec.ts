import { KnowledgeGraphError } from './errors';
import { CDN, parcelConversation, refundConversation } from './test-support/conversations';
import { tempGraphPath, type TempDir, withGraph } from './test-support/temp-graph';

const ONE_AT_A_TIME = 'One statement at a time here, got 2: run them one by one, or as a batch with `brandwire knowledge query`.';
const BIG = 'RETURN CAST(9007199254740993 AS INT64) AS big, CAST(-9007199254740993 AS INT64) AS neg, 42 AS small, 1.5 AS f, true AS yes, [CAST(9007199254740993 AS INT64), 2] AS list';

describe('KnowledgeGraph queries (real Kuzu)', () => {
  let temp: TempDir;
  beforeAll(async () => {
    temp = tempGraphPath();
    await withGraph(temp.path, {}, async (graph) => {
      await graph.install();
      await graph.build([parcelConversation(), refundConversation()], { attachmentHost: CDN });
    });
  });
  afterAll(() => temp.remove());

  it('returns columns, Kuzu type names and JSON-typed rows; integers beyond 2^53 as exact strings (read-only database)', async () => {
    const result = await withGraph(temp.path, { readOnly: true }, (graph) => graph.query(BIG));
    expect(result).toEqual({
      columns: ['big', 'neg', 'small', 'f', 'yes', 'list'],
      types: ['INT64', 'INT64', 'INT64', 'DOUBLE', 'BOOL', 'INT64[]'],
      rows: [['9007199254740993', '-9007199254740993', 42, 1.5, true, ['9007199254740993', 2]]],
    });
  });

  it('reads a result of many rows whole and in order, across the chunks it reads between turns of the event loop', async () => {
    const result = await withGraph(temp.path, { readOnly: true }, (graph) => graph.query('UNWIND range(1, 60000) AS n RETURN n, "row " + CAST(n AS STRING) AS label'));
    expect(result.rows).toHaveLength(60_000);
    expect(result.rows[0]).toEqual([1, 'row 1']);
    expect(result.rows[4_999]).toEqual([5_000, 'row 5000']);
    expect(result.rows[5_000]).toEqual([5_001, 'row 5001']);
    expect(result.rows.at(-1)).toEqual([60_000, 'row 60000']);
  });

  it('reads integers beyond 2^53 exactly also on a graph opened for writing (read-only query)', async () => {
    const result = await withGraph(temp.path, {}, (graph) => graph.query(BIG));
    expect(result.rows).toEqual([['9007199254740993', '-9007199254740993', 42, 1.5, true, ['9007199254740993', 2]]]);
    expect(result.inexact).toBeUndefined();
  });

  it('marks the columns it cannot read exactly in write mode instead of running the statement twice', async () => {
    const result = await withGraph(temp.path, {}, (graph) => graph.query(BIG, undefined, { write: true }));
    expect(result.inexact).toEqual(['big', 'neg', 'list']);
    expect(result.rows[0]?.slice(2)).toEqual([42, 1.5, true, ['9007199254740992', 2]]);
  });

  it('gives INTERVAL as milliseconds, also when the rows are read a second time for an integer beyond 2^53', async () => {
    const intervals = [
      "interval('1 day')",
      "interval('0 days')",
      "interval('2 years 3 months 4 days 5 microseconds')",
      "interval('2 hours') - interval('1 day')",
      "interval('0 days') - interval('3 hours 4 minutes 5.25 seconds')",
      "interval('1 year') - interval('2 months')",
      "interval('36 hours 1 millisecond 999 microseconds')",
      "interval('0 days') - interval('1500 microseconds')",
    ];
    const milliseconds = [86_400_000, 0, 70_329_600_000, -79_200_000, -11_045_250, 25_920_000_000, 129_600_001, -1];
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      expect(await graph.query("RETURN interval('1 day') AS d")).toEqual({ columns: ['d'], types: ['INTERVAL'], rows: [[86_400_000]] });
      const plain = await graph.query(`UNWIND [${intervals.join(', ')}] AS i RETURN i`);
      expect(plain.rows).toEqual(milliseconds.map((ms) => [ms]));
      const beside = await graph.query(`UNWIND [${intervals.join(', ')}] AS i RETURN i, CAST(9007199254740993 AS INT64) AS big`);
      expect(beside.types).toEqual(['INTERVAL', 'INT64']);
      expect(beside.rows).toEqual(milliseconds.map((ms) => [ms, '9007199254740993']));
      expect(beside.inexact).toBeUndefined();
    });
  });

  it('gives INT128 beyond 2^53 as a string and safe values as numbers; nodes as objects with _id and _label', async () => {
    const result = await withGraph(temp.path, { readOnly: true }, (graph) =>
      graph.query("MATCH (c:Channel) RETURN CAST('170141183460469231731687303715884105727' AS INT128) AS huge, CAST(7 AS INT128) AS seven, c"),
    );
    expect(result.types).toEqual(['INT128', 'INT128', 'NODE']);
    expect(result.rows[0]?.slice(0, 2)).toEqual(['170141183460469231731687303715884105727', 7]);
    expect(result.rows[0]?.[2]).toMatchObject({ _label: 'Channel', key: 'brand-a', _id: expect.stringMatching(/^\d+:\d+$/) });
  });

  it('passes parameters and refuses a missing one instead of binding it to NULL', async () => {
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      const found = await graph.query('MATCH (c:Customer {userKey: $user})-[:ASKED]->(i:Inquiry) RETURN i.id ORDER BY i.id', { user: 'user-1' });
      expect(found.rows).toEqual([['conv-1#1'], ['conv-1#2']]);
      await expect(graph.query('MATCH (c:Customer {userKey: $user}) RETURN c')).rejects.toEqual(new KnowledgeGraphError('MISSING_PARAMETER', 'Missing query parameter: $user'));
    });
  });

  it('refuses writes on a read-only database (Kuzu itself refuses)', async () => {
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      await expect(graph.query("CREATE (:Channel {key: 'x'})", undefined, { write: true })).rejects.toThrow('Cannot execute write operations in a read-only database!');
      // a DETACH DELETE is a write like any other, not a clause reaching beyond the graph
      await expect(graph.query('MATCH (c:Customer) DETACH DELETE c')).rejects.toThrow('Cannot execute write operations in a read-only database!');
    });
  });

  it('refuses statements that write files or load extensions unless writes are allowed; allows them with write', async () => {
    const { existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    const file = join(temp.dir, 'customers.csv');
    const copy = `// export\nCOPY (MATCH (c:Customer) RETURN c.userKey) TO '${file}'`;
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      await expect(graph.query(copy)).rejects.toEqual(new KnowledgeGraphError('READ_ONLY', 'COPY reaches files or extensions beyond the graph: it runs only as a write (--write, with the graph opened for writing).'));
      const report = await graph.queryBatch(`RETURN 1; EXPORT DATABASE '${join(temp.dir, 'dump')}'; PROFILE ${copy}; explain /* plan */ ${copy}`, { continueOnError: true });
      expect(report.statements.map((s) => s.ok)).toEqual([true, false, false, false]);
    });
    expect(existsSync(file)).toBe(false);
    expect(existsSync(join(temp.dir, 'dump'))).toBe(false);
    await withGraph(temp.path, {}, (graph) => graph.query(copy, undefined, { write: true }));
    expect(existsSync(file)).toBe(true);
  });

  it('refuses a clause that reads files wherever it stands in a read-only statement (LOAD FROM after UNWIND or WITH)', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const secret = join(temp.dir, 'secret.csv');
    writeFileSync(secret, 'token,bw_secret\n');
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      for (const statement of [
        `UNWIND [1] AS x LOAD FROM '${secret}' (header=false) RETURN *`,
        `WITH 1 AS x /* c */ load\nfrom '${secret}' RETURN column0`,
        `MATCH (c:Channel) WITH c LOAD WITH HEADERS (a STRING) FROM '${secret}' RETURN a`,
        `UNWIND [1] AS x WITH x LIMIT 1LOAD FROM '${secret}' (header=false) RETURN *`,
      ]) {
        await expect(graph.query(statement)).rejects.toEqual(new KnowledgeGraphError('READ_ONLY', 'LOAD reaches files or extensions beyond the graph: it runs only as a write (--write, with the graph opened for writing).'));
      }
      // the word in a string, an escaped name, a comment or as a property name is no clause
      expect((await graph.query("RETURN 'load from x' AS `load`, 1 AS n // load from")).rows).toEqual([['load from x', 1]]);
      expect((await graph.query('MATCH (c:Channel) RETURN c.key')).rows).toHaveLength(1);
    });
  });

  it('gives the rows read first, marked inexact, when Kuzu cannot write them as JSON exactly (an infinity beside a big integer)', async () => {
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      const one = await graph.query('RETURN CAST(-9007199254740993 AS INT64) AS x, 1e300 * 1e300 AS inf');
      expect(one).toEqual({ columns: ['x', 'inf'], types: ['INT64', 'DOUBLE'], rows: [['-9007199254740992', 'Infinity']], inexact: ['x'] });
      const many = await graph.query('UNWIND [1, 2] AS n RETURN CAST(-9007199254740993 AS INT64) AS x, 1e300 * 1e300 * n AS inf');
      expect(many.rows).toHaveLength(2);
    });
  });

  it('refuses, read-only, what would change the storage or the connection for every later caller', async () => {
    const { existsSync } = await import('node:fs');
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      for (const statement of [
        'CHECKPOINT',
        'BEGIN TRANSACTION',
        'BEGIN TRANSACTION READ ONLY',
        'COMMIT',
        'ROLLBACK',
        'CALL timeout=1',
        'call /* x */ threads = 1',
        'PROFILE CHECKPOINT',
        'USE other',
        "COMMENT ON TABLE Channel IS 'x'",
        'UPDATE json',
        'UNINSTALL json',
      ]) {
        await expect(graph.query(statement)).rejects.toMatchObject({ code: 'READ_ONLY', message: expect.stringMatching(/is not a query: read-only, only MATCH, RETURN, WITH, UNWIND and CALL of a function run/) });
      }
      // the graph is as readable as before, and CALL of a function still runs
      expect((await graph.query('MATCH (c:Channel) RETURN count(c)')).rows).toEqual([[1]]);
      expect((await graph.query('CALL show_tables() RETURN count(*)')).rows[0]?.[0]).toEqual(expect.any(Number));
    });
    expect(existsSync(`${temp.path}.shadow`)).toBe(false);
    expect(existsSync(`${temp.path}.wal`)).toBe(false);
  });

  it('answers a statement that is not Cypher at all with Kuzu parser message (BAD_QUERY at the API), not READ_ONLY', async () => {
    for (const readOnly of [true, false]) {
      await withGraph(temp.path, { readOnly }, async (graph) => {
        for (const [statement, word] of [
          ['garbage', 'garbage'],
          ['hello world', 'hello'],
          ['PROFILE garbage', 'garbage'],
          ['1 + 1', '1'],
        ]) {
          // a plain Error, as Kuzu answers a malformed MATCH: the query API gives it as BAD_QUERY
          await expect(graph.query(statement)).rejects.toMatchObject({ name: 'Error', message: expect.stringMatching(new RegExp(`^Parser exception: (mismatched|extraneous) input '${word}' expecting `)) });
        }
        expect((await graph.query('MATCH (c:Channel) RETURN count(c)')).rows).toEqual([[1]]);
      });
    }
  });

  it('refuses, read-only, a statement Kuzu accepts but whose first word the read-only path does not know, instead of running it', async () => {
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      await expect(graph.query('EXPLAIN LOGICAL MATCH (c:Channel) RETURN c')).rejects.toMatchObject({ code: 'READ_ONLY', message: expect.stringMatching(/^LOGICAL is not a query: /) });
    });
  });

  it('stops a read-only query that runs too long, and the graph answers the next one', async () => {
    await withGraph(temp.path, { readOnly: true, queryTimeoutMs: 300 }, async (graph) => {
      const forever = 'UNWIND range(1, 1000000) AS x UNWIND range(1, 1000000) AS y WITH x, y WHERE x + y = -1 RETURN count(*)';
      await expect(graph.query(forever)).rejects.toThrow('The query ran longer than a query on a graph opened read-only may (30 s by default) and was stopped: add LIMIT or narrow it.');
      expect((await graph.query('RETURN 1')).rows).toEqual([[1]]);
    });
  });

  it('refuses a result of more than 100,000 rows instead of reading it into memory', async () => {
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      await expect(graph.query('UNWIND range(1, 100001) AS x RETURN x')).rejects.toThrow(
        'The result has 100,001 rows, more than the 100,000 a query may answer: add LIMIT or narrow the query.',
      );
      expect((await graph.query('UNWIND range(1, 100000) AS x RETURN count(x)')).rows).toEqual([[100000]]);
    });
  });

  it('refuses a result larger than 64 MB as JSON, counted while the rows are read (long strings, nested lists and maps)', async () => {
    const tooLarge = 'The result is larger than the 64 MB a query may answer (as JSON): add LIMIT or return fewer or shorter columns.';
    // Kuzu keeps a result of lists in its buffer pool: room for 100 MB of them
    await withGraph(temp.path, { readOnly: true, bufferPoolMb: 256 }, async (graph) => {
      // 20,000 rows of 5,000 characters: 100 MB, far below the row limit
      await expect(graph.query("UNWIND range(1, 20000) AS x RETURN x, repeat('a', 5000) AS s")).rejects.toThrow(tooLarge);
      await expect(graph.query("UNWIND range(1, 200) AS x RETURN list_transform(range(1, 100), y -> repeat('b', 5000)) AS l")).rejects.toThrow(tooLarge);
      await expect(graph.query("UNWIND range(1, 200) AS x RETURN list_transform(range(1, 100), y -> {k: repeat('c', 5000)}) AS m")).rejects.toThrow(tooLarge);
      const fits = await graph.query("UNWIND range(1, 10000) AS x RETURN x, repeat('a', 5000) AS s");
      expect(fits.rows).toHaveLength(10_000);
      expect(fits.rows.at(-1)).toEqual([10_000, 'a'.repeat(5000)]);
    });
  });

  it('refuses a result larger than 64 MB also on a graph opened for writing', async () => {
    await withGraph(temp.path, { bufferPoolMb: 256 }, async (graph) => {
      await expect(graph.query("UNWIND range(1, 20000) AS x RETURN repeat('a', 5000) AS s")).rejects.toMatchObject({ message: expect.stringContaining('larger than the 64 MB') });
      expect((await graph.query('RETURN 1')).rows).toEqual([[1]]);
    });
  });

  it('holds a batch to the limits of one query in all: the statement that takes its results over 64 MB fails, naming the limit', async () => {
    // 5,000 rows of 5,000 characters: 25 MB each, far below the limit of one query
    const quarter = "UNWIND range(1, 5000) AS x RETURN repeat('a', 5000) AS s";
    const report = await withGraph(temp.path, { readOnly: true, bufferPoolMb: 256 }, (graph) => graph.queryBatch(`${quarter}; ${quarter}; ${quarter}; RETURN 1`, { continueOnError: true }));
    expect(report.ok).toBe(false);
    expect(report.lines).toEqual([
      '#1 ok (5000 rows)',
      '#2 ok (5000 rows)',
      "#3 FAILED: It ran, but its result is not shown: it takes the batch over the 64 MB a batch may answer in all as JSON (its writes stay unless rolled back): add LIMIT, or run smaller batches.",
      '#4 ok (1 row)',
    ]);
    expect(report.statements[2]?.result).toBeUndefined();
  });

  it('holds a batch to 100,000 rows in all, and rolls back the transaction of the statement that takes it over', async () => {
    const rows = 'UNWIND range(1, 60000) AS x RETURN x';
    const tooMany = (index: number, total: string): string =>
      `#${index} FAILED: It ran, but its result is not shown: it takes the batch to ${total} rows, over the 100,000 a batch may answer in all (its writes stay unless rolled back): add LIMIT, or run smaller batches.`;
    const read = await withGraph(temp.path, { readOnly: true }, (graph) => graph.queryBatch(`RETURN 1; ${rows}; ${rows}; RETURN 2`));
    expect(read.lines).toEqual(['#1 ok (1 row)', '#2 ok (60000 rows)', tooMany(3, '120,001'), '#4 skipped']);
    const batch = `BEGIN TRANSACTION; CREATE (:Channel {key: 'cap-lost'}); ${rows}; ${rows}; CREATE (:Channel {key: 'cap-after'})`;
    const written = await withGraph(temp.path, {}, (graph) => graph.queryBatch(batch, { write: true, continueOnError: true }));
    expect(written.lines).toEqual(['#1 ran, rolled back (0 rows)', '#2 ran, rolled back (0 rows)', '#3 ran, rolled back (60000 rows)', tooMany(4, '120,000'), '#5 ok (0 rows)']);
    await withGraph(temp.path, {}, async (graph) => {
      expect((await graph.query("MATCH (c:Channel) WHERE c.key STARTS WITH 'cap-' RETURN c.key")).rows).toEqual([['cap-after']]);
      await graph.queryBatch("MATCH (c:Channel) WHERE c.key STARTS WITH 'cap-' DELETE c", { write: true });
    });
  });

  it('refuses a batch using a $parameter before running any of it: a batch is given none', async () => {
    const missing = new KnowledgeGraphError('MISSING_PARAMETER', 'Missing query parameters: $key, $n');
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      await expect(graph.queryBatch('RETURN 1; MATCH (c:Channel {key: $key}) RETURN c, $n; RETURN $key')).rejects.toEqual(missing);
    });
    await withGraph(temp.path, {}, async (graph) => {
      await expect(graph.queryBatch("CREATE (:Channel {key: 'param-before'}); MATCH (c:Channel {key: $key}) RETURN c, $n", { write: true })).rejects.toEqual(missing);
      expect((await graph.query("MATCH (c:Channel {key: 'param-before'}) RETURN count(c)")).rows).toEqual([[0]]);
    });
  });

  it('runs read-only queries on a writable graph in a read-only transaction, so writes fail there too', async () => {
    await withGraph(temp.path, {}, async (graph) => {
      await expect(graph.query("CREATE (:Channel {key: 'x'})")).rejects.toThrow('Can not execute a write query inside a read-only transaction.');
      await expect(graph.query("COMMIT; CREATE (:Channel {key: 'x'})")).rejects.toThrow(ONE_AT_A_TIME);
      expect((await graph.query('MATCH (c:Channel) RETURN count(c)')).rows).toEqual([[1]]);
    });
  });

  it('answers several statements given to query() in words for the person who typed them (BAD_QUERY at the API)', async () => {
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      await expect(graph.query('RETURN 1; RETURN 2')).rejects.toMatchObject({ name: 'Error', message: ONE_AT_A_TIME });
    });
  });

  it('reports each statement of a batch and stops at the first failure', async () => {
    const report = await withGraph(temp.path, { readOnly: true }, (graph) => graph.queryBatch("MATCH (c:Conversation) RETURN c.convId ORDER BY c.convId; CREATE (:Channel {key: 'x'}); RETURN 3"));
    expect(report.ok).toBe(false);
    expect(report.lines).toEqual(['#1 ok (2 rows)', '#2 FAILED: Connection exception: Cannot execute write operations in a read-only database!', '#3 skipped']);
    expect(report.statements[0]?.result?.rows).toEqual([['conv-1'], ['conv-2']]);
  });

  it('goes on after a failure with continueOnError, and writes with write', async () => {
    const report = await withGraph(temp.path, {}, (graph) =>
      graph.queryBatch("MATCH (x:Nope) RETURN x; CREATE (:Channel {key: 'brand-z'}); MATCH (c:Channel) RETURN c.key ORDER BY c.key", { write: true, continueOnError: true }),
    );
    expect(report.lines[0]).toMatch(/^#1 FAILED: Binder exception: Table Nope does not exist\.$/);
    expect(report.lines.slice(1)).toEqual(['#2 ok (0 rows)', '#3 ok (2 rows)']);
    expect(report.statements[2]?.result?.rows).toEqual([['brand-a'], ['brand-z']]);
    expect(report.ok).toBe(false);
    await withGraph(temp.path, {}, (graph) => graph.queryBatch("MATCH (c:Channel {key: 'brand-z'}) DELETE c", { write: true }));
  });

  it('keeps what a write batch commits, and fails one that ends inside the transaction it began', async () => {
    const channels = () => withGraph(temp.path, { readOnly: true }, async (graph) => (await graph.query("MATCH (c:Channel) WHERE c.key STARTS WITH 'tx-' RETURN c.key ORDER BY c.key")).rows);
    const committed = await withGraph(temp.path, {}, (graph) => graph.queryBatch("BEGIN TRANSACTION; CREATE (:Channel {key: 'tx-kept'}); COMMIT", { write: true }));
    expect(committed).toMatchObject({ ok: true, lines: ['#1 ok (0 rows)', '#2 ok (0 rows)', '#3 ok (0 rows)'] });
    const open = await withGraph(temp.path, {}, (graph) => graph.queryBatch("CREATE (:Channel {key: 'tx-before'}); BEGIN TRANSACTION; CREATE (:Channel {key: 'tx-lost'})", { write: true }));
    expect(open.ok).toBe(false);
    expect(open.lines).toEqual([
      '#1 ok (0 rows)',
      '#2 ran, rolled back (0 rows)',
      '#3 ran, rolled back (0 rows)',
      'FAILED: the batch ended inside the transaction #2 began (BEGIN TRANSACTION without COMMIT): its writes were rolled back',
    ]);
    expect(open.statements.map((s) => ({ index: s.index, ok: s.ok, rolledBack: s.rolledBack }))).toEqual([
      { index: 1, ok: true, rolledBack: undefined },
      { index: 2, ok: true, rolledBack: true },
      { index: 3, ok: true, rolledBack: true },
    ]);
    expect(await channels()).toEqual([['tx-before'], ['tx-kept']]);
    await withGraph(temp.path, {}, (graph) => graph.queryBatch("MATCH (c:Channel) WHERE c.key STARTS WITH 'tx-' DELETE c", { write: true }));
  });

  it('takes EXPLAIN COMMIT for a plan, not for the end of the transaction it explains', async () => {
    const report = await withGraph(temp.path, {}, (graph) => graph.queryBatch("BEGIN TRANSACTION; CREATE (:Channel {key: 'tx-explained'}); EXPLAIN COMMIT", { write: true }));
    expect(report.ok).toBe(false);
    expect(report.lines).toEqual([
      '#1 ran, rolled back (0 rows)',
      '#2 ran, rolled back (0 rows)',
      expect.stringMatching(/^#3 (ok|ran, rolled back) \(\d+ rows?\)$/),
      'FAILED: the batch ended inside the transaction #1 began (BEGIN TRANSACTION without COMMIT): its writes were rolled back',
    ]);
  });

  it('lets a write batch end inside a read-only transaction: nothing was written, and what it read stands', async () => {
    const report = await withGraph(temp.path, {}, (graph) => graph.queryBatch('begin transaction read only; MATCH (c:Channel) RETURN count(c)', { write: true }));
    expect(report).toMatchObject({ ok: true, lines: ['#1 ok (0 rows)', '#2 ok (1 row)'] });
    expect(report.statements.map((s) => s.rolledBack)).toEqual([undefined, undefined]);
  });

  it.each([
    ['a binder error, after which Kuzu ends the transaction itself', 'MATCH (x:Nope) RETURN x', /^#3 FAILED: Binder exception: Table Nope does not exist\.$/],
    ['a parser error, after which Kuzu would keep the transaction open', 'garbage here', /^#3 FAILED: Parser exception: /],
  ])('marks the writes of a transaction that a failed statement ended as rolled back (%s); the statements after it run on their own', async (_what, failing, failure) => {
    const channels = () => withGraph(temp.path, { readOnly: true }, async (graph) => (await graph.query("MATCH (c:Channel) WHERE c.key STARTS WITH 'tx-' RETURN c.key ORDER BY c.key")).rows);
    const batch = `BEGIN TRANSACTION; CREATE (:Channel {key: 'tx-lost'}); ${failing}; CREATE (:Channel {key: 'tx-after'})`;
    await withGraph(temp.path, {}, (graph) => graph.queryBatch("MATCH (c:Channel) WHERE c.key STARTS WITH 'tx-' DELETE c", { write: true }));
    const report = await withGraph(temp.path, {}, (graph) => graph.queryBatch(batch, { write: true, continueOnError: true }));
    expect(report.ok).toBe(false);
    expect(report.lines).toEqual(['#1 ran, rolled back (0 rows)', '#2 ran, rolled back (0 rows)', expect.stringMatching(failure), '#4 ok (0 rows)']);
    expect(report.statements.map((s) => s.rolledBack === true)).toEqual([true, true, false, false]);
    expect(await channels()).toEqual([['tx-after']]);
    const stopped = await withGraph(temp.path, {}, (graph) => graph.queryBatch(batch.replace('tx-lost', 'tx-lost-too'), { write: true }));
    expect(stopped.lines).toEqual(['#1 ran, rolled back (0 rows)', '#2 ran, rolled back (0 rows)', expect.stringMatching(failure), '#4 skipped']);
    expect(await channels()).toEqual([['tx-after']]);
    await withGraph(temp.path, {}, (graph) => graph.queryBatch("MATCH (c:Channel) WHERE c.key STARTS WITH 'tx-' DELETE c", { write: true }));
  });
});
