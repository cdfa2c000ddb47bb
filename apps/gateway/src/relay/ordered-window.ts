/** How many tasks may wait, per place to run: enough for bursts, and a bound on what a stream can pile up. */
const WAITING_PER_PLACE = 8;

/**
 * Runs tasks up to `width` at a time, those of one room one after another in the order given, and tells after each
 * task which id every task up to it has ended by (`settled`): a cursor kept there never passes an unfinished task.
 * A task waiting for its room's earlier one takes no place, so a burst in one room holds no other room back.
 */
export class OrderedWindow {
  private readonly started: Array<{ id: string; ended: boolean }> = [];
  private readonly lastOfRoom = new Map<string, Promise<void>>();
  private readonly placeFreed: Array<() => void> = [];
  private readonly entryFreed: Array<() => void> = [];
  private running = 0;

  constructor(
    private readonly width: number,
    private readonly settled: (id: string) => void,
  ) {}

  /** Takes the task (the caller waits only while too many wait already), unless its id is taken and not ended; a task reports its own failures. */
  async add(room: string, id: string, task: () => Promise<void>): Promise<void> {
    // a stream opened again after a failure gives again what was taken and has not ended: it is not run twice
    if (this.started.some((entry) => entry.id === id)) return;
    while (this.started.length >= this.width * WAITING_PER_PLACE) await new Promise<void>((free) => this.entryFreed.push(free));
    const entry = { id, ended: false };
    this.started.push(entry);
    const previous = this.lastOfRoom.get(room) ?? Promise.resolve();
    const run: Promise<void> = previous
      .then(() => this.inPlace(task))
      .catch(() => undefined)
      .finally(() => {
        entry.ended = true;
        if (this.lastOfRoom.get(room) === run) this.lastOfRoom.delete(room);
        let through: string | undefined;
        while (this.started[0]?.ended) {
          through = this.started.shift()?.id;
          this.entryFreed.shift()?.();
        }
        if (through !== undefined) this.settled(through);
      });
    this.lastOfRoom.set(room, run);
  }

  /** Waits for every task taken. */
  async drained(): Promise<void> {
    while (this.lastOfRoom.size > 0) await Promise.all([...this.lastOfRoom.values()]);
  }

  private async inPlace(task: () => Promise<void>): Promise<void> {
    while (this.running >= this.width) await new Promise<void>((free) => this.placeFreed.push(free));
    this.running++;
    try {
      await task();
    } finally {
      this.running--;
      this.placeFreed.shift()?.();
    }
  }
}
