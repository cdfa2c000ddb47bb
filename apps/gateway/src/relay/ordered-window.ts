/**
 * Runs tasks up to `width` at a time, those of one room one after another in the order given, and tells after each
 * task which id every task up to it has ended by (`settled`): a cursor kept there never passes an unfinished task.
 */
export class OrderedWindow {
  private readonly started: Array<{ id: string; ended: boolean }> = [];
  private readonly lastOfRoom = new Map<string, Promise<void>>();
  private readonly waiting: Array<() => void> = [];
  private running = 0;

  constructor(
    private readonly width: number,
    private readonly settled: (id: string) => void,
  ) {}

  /** Starts the task once a place is free (the caller waits for that, not for the task); a task reports its own failures. */
  async add(room: string, id: string, task: () => Promise<void>): Promise<void> {
    while (this.running >= this.width) await new Promise<void>((free) => this.waiting.push(free));
    this.running++;
    const entry = { id, ended: false };
    this.started.push(entry);
    const previous = this.lastOfRoom.get(room) ?? Promise.resolve();
    const run: Promise<void> = previous
      .then(task)
      .catch(() => undefined)
      .finally(() => {
        this.running--;
        entry.ended = true;
        if (this.lastOfRoom.get(room) === run) this.lastOfRoom.delete(room);
        this.waiting.shift()?.();
        let through: string | undefined;
        while (this.started[0]?.ended) through = this.started.shift()?.id;
        if (through !== undefined) this.settled(through);
      });
    this.lastOfRoom.set(room, run);
  }

  /** Waits for every task started. */
  async drained(): Promise<void> {
    while (this.lastOfRoom.size > 0) await Promise.all([...this.lastOfRoom.values()]);
  }
}
