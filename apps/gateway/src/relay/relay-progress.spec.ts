import { RelayProgress } from './relay-progress';

describe('RelayProgress', () => {
  const settled = async (waiting: Promise<void>): Promise<boolean> => {
    let done = false;
    void waiting.then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    return done;
  };

  it('lets a wait for a seq go once the relay is done with it, not before', async () => {
    const progress = new RelayProgress();
    const stop = new AbortController();
    const waiting = progress.through(5, stop.signal);
    expect(await settled(waiting)).toBe(false);
    progress.at('4.0');
    expect(await settled(waiting)).toBe(false);
    progress.at('5.0');
    expect(await settled(waiting)).toBe(true);
    expect(await settled(progress.through(3, stop.signal))).toBe(true);
  });

  it('takes a channel end as done with every seq up to it', async () => {
    const progress = new RelayProgress();
    progress.at('12');
    expect(await settled(progress.through(12, new AbortController().signal))).toBe(true);
    expect(await settled(progress.through(13, new AbortController().signal))).toBe(false);
  });

  it('lets every wait go when the relay ends or the stop comes', async () => {
    const progress = new RelayProgress();
    const stop = new AbortController();
    const stopped = progress.through(9, stop.signal);
    const ended = progress.through(9, new AbortController().signal);
    stop.abort();
    expect(await settled(stopped)).toBe(true);
    expect(await settled(ended)).toBe(false);
    progress.end();
    expect(await settled(ended)).toBe(true);
    expect(await settled(progress.through(10, new AbortController().signal))).toBe(true);
  });
});
