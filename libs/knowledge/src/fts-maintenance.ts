/**
 * Kuzu keeps a full-text index up to date through COPY, but at about 16k rows/s, while building the index anew
 * runs at about 70k rows/s over the whole table. A build that adds more than a third of what the tables hold
 * drops the indexes before copying; at the end (also when the build fails) every index is made whole again,
 * also those an interrupted build or install left missing or broken.
 */
import { dropFtsIndexes, listFtsIndexes } from './fts-indexes';
import { ensureFtsIndexes } from './fts-repair';
import type { KuzuConnection } from './kuzu-native';
import { rowsOf } from './kuzu-run';
import { FTS_INDEXES } from './schema';

const REBUILD_RATIO = 3;
const FTS_TABLES: readonly string[] = FTS_INDEXES.map((f) => f.table);

export class FtsMaintenance {
  private dropped = false;
  private added = 0;

  private constructor(
    private readonly conn: KuzuConnection,
    private readonly existingRows: number,
    private readonly missingAtStart: boolean,
  ) {}

  static async start(conn: KuzuConnection): Promise<FtsMaintenance> {
    let rows = 0;
    for (const fts of FTS_INDEXES) rows += Number((await rowsOf(conn, `MATCH (n:${fts.table}) RETURN count(n) AS n`))[0]?.['n'] ?? 0);
    const listed = new Set((await listFtsIndexes(conn)).map((i) => i.table));
    return new FtsMaintenance(conn, rows, FTS_TABLES.some((t) => !listed.has(t)));
  }

  /** Called before each bulk copy with the number of text rows (inquiries and responses) it adds. */
  async beforeCopy(textRows: number): Promise<void> {
    this.added += textRows;
    if (this.dropped || this.added * REBUILD_RATIO <= this.existingRows) return;
    await dropFtsIndexes(this.conn, (await listFtsIndexes(this.conn)).filter((i) => FTS_TABLES.includes(i.table)));
    this.dropped = true;
  }

  /** True when indexes were dropped or missing and have to be built. */
  get pending(): boolean {
    return this.dropped || this.missingAtStart;
  }

  /** Creates the indexes dropped for the load, and repairs any other left missing or broken. */
  async restore(): Promise<void> {
    this.dropped = false;
    await ensureFtsIndexes(this.conn);
  }
}
