import { EventEmitter } from 'node:events';
import { BuildInterruption, type SignalSource } from './knowledge-interrupt';

class FakeProcess extends EventEmitter implements SignalSource {
  readonly exits: number[] = [];
  exit(code: number): never {
    this.exits.push(code);
    throw new Error(`exit ${String(code)}`);
  }
}

async function* pages(count: number, wait: () => Promise<void> = () => Promise.resolve()): AsyncIterable<number> {
  for (let n = 0; n < count; n++) {
    await wait();
    yield n;
  }
}

async function drain(items: AsyncIterable<number>, onItem: (n: number) => void = () => undefined): Promise<number[]> {
  const seen: number[] = [];
  for await (const item of items) {
    seen.push(item);
    onItem(item);
  }
  return seen;
}

describe('BuildInterruption', () => {
  let proc: FakeProcess;
  let lines: string[];
  let interruption: BuildInterruption;
  beforeEach(() => {
    proc = new FakeProcess();
    lines = [];
    interruption = BuildInterruption.watch((line) => lines.push(line), proc);
  });
  afterEach(() => interruption.dispose());

  it('passes every conversation through when no signal comes', async () => {
    await expect(drain(interruption.guard(pages(3)))).resolves.toEqual([0, 1, 2]);
    expect(interruption.signal).toBeUndefined();
  });

  it('ends the conversations at the first SIGINT and fails INTERRUPTED, exit 1, saying the rest was not loaded', async () => {
    const seen: number[] = [];
    await expect(drain(interruption.guard(pages(10)), (n) => (seen.push(n), n === 2 && proc.emit('SIGINT')))).rejects.toThrow('the build was interrupted');
    expect(seen).toEqual([0, 1, 2]);
    expect(lines).toEqual(['SIGINT: stopping the build after its current step (again to stop at once).']);
    expect(interruption.failure()).toMatchObject({ code: 'INTERRUPTED', exit: 1, details: { signal: 'SIGINT' }, message: expect.stringContaining('the rest was not loaded') });
    expect(proc.exits).toEqual([]);
  });

  it('stops while a page is still awaited (SIGTERM)', async () => {
    let release: () => void = () => undefined;
    const hanging = pages(5, () => new Promise<void>((resume) => (release = resume)));
    const reading = drain(interruption.guard(hanging));
    await new Promise((resume) => setImmediate(resume));
    proc.emit('SIGTERM');
    await expect(reading).rejects.toThrow('the build was interrupted');
    release();
    expect(interruption.failure()).toMatchObject({ details: { signal: 'SIGTERM' } });
  });

  it('tells a build that had read everything before the signal that nothing is missing', async () => {
    await drain(interruption.guard(pages(2)));
    proc.emit('SIGINT');
    expect(interruption.failure().message).toMatch(/finished first, so nothing is missing/);
  });

  it('exits at once, 130 or 143, at a second signal', () => {
    proc.emit('SIGINT');
    expect(() => proc.emit('SIGINT')).toThrow('exit 130');
    expect(lines[1]).toMatch(/^SIGINT again: stopping at once/);
    const other = BuildInterruption.watch(() => undefined, (proc = new FakeProcess()));
    proc.emit('SIGTERM');
    expect(() => proc.emit('SIGTERM')).toThrow('exit 143');
    other.dispose();
  });

  it('leaves the signals alone once disposed', () => {
    interruption.dispose();
    expect(proc.listenerCount('SIGINT') + proc.listenerCount('SIGTERM')).toBe(0);
  });
});
