/** A binary min-heap of (time, item): the next session to expire is found without scanning all customers. */
export class ExpiryHeap<T> {
  private readonly items: { at: number; item: T }[] = [];

  get size(): number {
    return this.items.length;
  }

  push(at: number, item: T): void {
    const a = this.items;
    a.push({ at, item });
    let i = a.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (a[parent].at <= a[i].at) break;
      this.swap(parent, i);
      i = parent;
    }
  }

  /** Removes and returns the earliest item whose time is <= now, if any. */
  popDue(now: number): T | undefined {
    const a = this.items;
    if (a.length === 0 || a[0].at > now) return undefined;
    const top = a[0];
    const last = a.pop();
    if (last && a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l].at < a[m].at) m = l;
        if (r < a.length && a[r].at < a[m].at) m = r;
        if (m === i) break;
        this.swap(m, i);
        i = m;
      }
    }
    return top.item;
  }

  private swap(i: number, j: number): void {
    const a = this.items;
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
