/** Runs the tasks of one key one after another, in this process; tasks of different keys run side by side. */
export class KeyedTurns {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** keys with a task running or waiting */
  get busyKeys(): number {
    return this.tails.size;
  }
}
