/**
 * Kuzu keeps a full-text index up to date through COPY, but at about 16k rows/s, while building the index anew
 * runs at about 70k rows/s over the whole table. A build that adds more than a third of what the tables hold
 * drops the indexes before copying and creates them again at the end (also when the build fails).
 */
import { createFtsIndex, dropFtsIndex, ftsIndexesByTable } from './fts-indexes';
import type { KuzuConnection } from './kuzu-native';
import { rowsOf } from './kuzu-run';
import { FTS_INDEXES, type FtsIndex } from './schema';

const REBUILD_RATIO = 3;

export class FtsMaintenance {
  private dropped: FtsIndex[] = [];
  private added = 0;

  private constructor(
    private readonly conn: KuzuConnection,
    private readonly existingRows: number,
  ) {}

  static async start(conn: KuzuConnection): Promise<FtsMaintenance> {
    let rows = 0;
    for (const fts of FTS_INDEXES) rows += Number((await rowsOf(conn, `MATCH (n:${fts.table}) RETURN count(n) AS n`))[0]?.['n'] ?? 0);
    return new FtsMaintenance(conn, rows);
  }

  /** Called before each bulk copy with the number of text rows (inquiries and responses) it adds. */
  async beforeCopy(textRows: number): Promise<void> {
    this.added += textRows;
    if (this.dropped.length > 0 || this.added * REBUILD_RATIO <= this.existingRows) return;
    const present = await ftsIndexesByTable(this.conn);
    for (const fts of FTS_INDEXES) {
      const name = present.get(fts.table);
      if (name === undefined) continue;
      await dropFtsIndex(this.conn, fts.table, name);
      this.dropped.push(fts);
    }
  }

  /** True when indexes were dropped and have to be rebuilt. */
  get pending(): boolean {
    return this.dropped.length > 0;
  }

  /** Creates again the indexes dropped for the load. */
  async restore(): Promise<void> {
    const dropped = this.dropped;
    this.dropped = [];
    for (const fts of dropped) await createFtsIndex(this.conn, fts);
  }
}
