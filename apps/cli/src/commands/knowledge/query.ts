import type { BatchReport } from '@brandwire/knowledge';
import { string as stringArg } from '@oclif/core/args';
import { boolean } from '@oclif/core/flags';
import { BrandwireCommand } from '../../base-command';
import { usageError } from '../../lib/cli-error';
import { closing, openGraph, openReader } from '../../lib/knowledge-access';
import { batchFailure, readOnlyBatch } from '../../lib/knowledge-batch';
import { presentBatch } from '../../lib/knowledge-present';

export type QueryResult = { ok: true; via: 'gateway' | 'graph' } & BatchReport;

export default class KnowledgeQuery extends BrandwireCommand {
  static override summary = 'Run Cypher statements on the knowledge graph: read-only unless --write; a `;` batch reports each statement';
  static override description = [
    'Read-only by default: the graph is opened read-only (or read through the running gateway), so the database itself refuses writes. Writes and DDL need --write, which opens the graph for writing and needs the gateway stopped.',
    'Statements separated by `;` run one after another; each is reported ("#1 ok (3 rows)", "#2 FAILED: ..."). The batch stops at the first failure unless --continue-on-error, and the exit code is 1 when a statement failed. With --json a failed batch is {"ok":false,"error":…,"code":"BAD_QUERY","statements":[…],"lines":[…]}.',
    'The statements of a batch answer together at most what one query may, 100,000 rows and 64 MB as JSON: the statement that takes them over fails ("#3 FAILED: This statement takes the batch\'s results over …"). The tool passes no `$parameters`: a batch that uses one is MISSING_PARAMETER (exit 2) before any statement runs; write the values into the statements.',
    'With --write, a transaction the batch begins (BEGIN TRANSACTION) keeps its writes only with COMMIT: a batch that ends inside it fails ("FAILED: the batch ended inside the transaction #1 began …: its writes were rolled back"), and so does one whose statement fails inside it. Either way the statements that ran in it are reported "#2 ran, rolled back (0 rows)", with "rolledBack":true in --json.',
  ].join('\n\n');
  static override examples = [
    `<%= config.bin %> knowledge query "MATCH (c:Customer) RETURN c.userKey LIMIT 5"`,
    `<%= config.bin %> knowledge query --json "MATCH (i:Inquiry) RETURN count(*); MATCH (r:Response) RETURN count(*)"`,
    `<%= config.bin %> knowledge query --write --continue-on-error "CREATE NODE TABLE Note(id STRING PRIMARY KEY, text STRING); CREATE (:Note {id: 'n1', text: 'call back'})"`,
  ];
  static override args = { query: stringArg({ description: 'one Cypher statement, or several separated by `;`', required: true }) };
  static override flags = {
    write: boolean({ description: 'allow writes and DDL (opens the graph for writing; the gateway must be stopped)' }),
    'continue-on-error': boolean({ description: 'run the remaining statements after one failed' }),
  };

  async run(): Promise<QueryResult> {
    const { args, flags } = await this.parse(KnowledgeQuery);
    const { splitStatements } = await import('@brandwire/knowledge');
    const statements = splitStatements(args.query);
    if (statements.length === 0) throw usageError('the query has no statement', 'pass a Cypher statement, e.g. "MATCH (c:Customer) RETURN count(*)"');
    const continueOnError = flags['continue-on-error'];
    let report: BatchReport;
    let via: 'gateway' | 'graph' = 'graph';
    if (flags.write) {
      report = await closing(await openGraph('query --write'), (graph) => graph.queryBatch(args.query, { write: true, continueOnError }));
    } else {
      const reader = await openReader('query', this.session());
      via = reader.via;
      report = await closing(reader.backend, (backend) => readOnlyBatch(backend, statements, continueOnError));
    }
    await this.show(() => presentBatch(report));
    if (!report.ok) throw batchFailure(report, flags.write);
    return { ...report, ok: true, via };
  }
}
