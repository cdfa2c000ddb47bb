/** How often the gateway looks at its resident memory. */
const CHECK_EVERY_MS = 200;

/**
 * Calls `exceeded` (once) when the process's resident memory passes `limitMb`. A read query can make Kuzu build
 * values outside its buffer pool (`UNWIND range(1, 100000000) …` builds the whole list) until the machine has no
 * memory left, and its query timeout does not stop that: the gateway stops itself first. Returns the stop of
 * the watch.
 */
export function guardMemory(limitMb: number, exceeded: (rssMb: number) => void): () => void {
  const timer = setInterval(() => {
    const rssMb = Math.round(process.memoryUsage.rss() / (1024 * 1024));
    if (rssMb <= limitMb) return;
    clearInterval(timer);
    exceeded(rssMb);
  }, CHECK_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
