/** How long one answer of the database stands: however often health is asked, the database gets a query a second at most. */
export const STORAGE_CHECK_EVERY_MS = 1_000;

/** Whether the database answers, asked of it at most once a second (and once at a time). */
export class StorageCheck {
  private last: { at: number; reachable: boolean } | undefined;
  private asking: Promise<boolean> | undefined;

  constructor(
    private readonly ping: () => Promise<void>,
    private readonly now: () => number = Date.now,
  ) {}

  reachable(): Promise<boolean> {
    if (this.last && this.now() - this.last.at < STORAGE_CHECK_EVERY_MS) return Promise.resolve(this.last.reachable);
    this.asking ??= this.ping().then(
      () => this.remember(true),
      () => this.remember(false),
    );
    return this.asking;
  }

  private remember(reachable: boolean): boolean {
    this.last = { at: this.now(), reachable };
    this.asking = undefined;
    return reachable;
  }
}
