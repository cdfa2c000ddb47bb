import { OrderedWindow } from './ordered-window';

describe('OrderedWindow', () => {
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  };

  it('runs rooms side by side, one room in order, and settles only through tasks that all ended', async () => {
    const settled: string[] = [];
    const order: string[] = [];
    const window = new OrderedWindow(4, (id) => settled.push(id));
    const a1 = gate();
    const b1 = gate();
    await window.add('a', '1', async () => {
      await a1.opened;
      order.push('a1');
    });
    await window.add('b', '2', async () => {
      await b1.opened;
      order.push('b2');
    });
    await window.add('a', '3', async () => {
      order.push('a3');
    });
    b1.open();
    await new Promise((resolve) => setImmediate(resolve));
    // b's task ended, but a's first has not: nothing is settled past it, and a's second waits for it
    expect(order).toEqual(['b2']);
    expect(settled).toEqual([]);
    a1.open();
    await window.drained();
    expect(order).toEqual(['b2', 'a1', 'a3']);
    expect(settled.at(-1)).toBe('3');
  });

  it('lets no more than its width run at once, and counts a failed task as ended', async () => {
    const settled: string[] = [];
    const window = new OrderedWindow(2, (id) => settled.push(id));
    const gates = [gate(), gate(), gate(), gate()];
    let running = 0;
    let most = 0;
    const task = (wait: Promise<void>, fail = false) => async () => {
      running++;
      most = Math.max(most, running);
      await wait;
      running--;
      if (fail) throw new Error('failed');
    };
    const adds = gates.map((g, i) => window.add(`room${i}`, String(i + 1), task(g.opened, i === 0)));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running).toBe(2);
    for (const g of gates) g.open();
    await Promise.all(adds);
    await window.drained();
    expect(most).toBe(2);
    expect(settled.at(-1)).toBe('4');
  });
});

describe('OrderedWindow given an id again', () => {
  it('runs a task whose id it holds unfinished once, and one given after it ended again', async () => {
    const window = new OrderedWindow(2, () => undefined);
    let runs = 0;
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const task = async () => {
      runs++;
      await blocked;
    };
    await window.add('a', '7.0', task);
    await window.add('a', '7.0', task);
    release();
    await window.drained();
    expect(runs).toBe(1);
    await window.add('a', '7.0', task);
    await window.drained();
    expect(runs).toBe(2);
  });
});

describe('OrderedWindow when full', () => {
  it('lets a burst in one room hold no other room back', async () => {
    const window = new OrderedWindow(2, () => undefined);
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    for (let i = 0; i < 6; i++) await window.add('busy', `b${i}`, () => blocked);
    let other = false;
    await window.add('other', 'o1', async () => {
      other = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(other).toBe(true);
    release();
    await window.drained();
  });

  it('holds the caller back once eight tasks a place wait', async () => {
    const window = new OrderedWindow(2, () => undefined);
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    for (let i = 0; i < 16; i++) await window.add(`room${i}`, String(i), () => blocked);
    let added = false;
    const next = window.add('late', '16', async () => undefined).then(() => (added = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(added).toBe(false);
    release();
    await next;
    expect(added).toBe(true);
    await window.drained();
  });
});
