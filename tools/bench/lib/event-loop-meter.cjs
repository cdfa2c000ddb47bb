/**
 * Preloaded into a benchmarked server (`--require`): writes the event loop's cumulative use
 * (`performance.eventLoopUtilization()`: ms idle and active since start) to BENCH_LOOP_FILE every 200 ms, so the
 * bench can tell how busy the server's one JavaScript thread was during a measurement. A loop near 100 % busy is
 * the server's limit whatever the cores still have free.
 */
const { renameSync, writeFileSync } = require('node:fs');
const { performance } = require('node:perf_hooks');
const { isMainThread } = require('node:worker_threads');

const file = process.env.BENCH_LOOP_FILE;
// worker threads (the store's) get the preload too: only the main thread's loop is the one measured
if (file && isMainThread) {
  const write = () => {
    const { idle, active } = performance.eventLoopUtilization();
    try {
      // written aside and renamed, so a reader never finds the file half written
      writeFileSync(`${file}.next`, JSON.stringify({ idle, active }));
      renameSync(`${file}.next`, file);
    } catch {
      // the bench reads what was written last; one missed sample only widens its window
    }
  };
  setInterval(write, 200).unref();
}
