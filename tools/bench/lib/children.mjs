/** Keeps track of the child servers so that they are stopped on every way out (also Ctrl-C). */
const running = new Set();

export function track(server) {
  running.add(server);
  const stop = server.stop.bind(server);
  server.stop = async (...args) => {
    try {
      return await stop(...args);
    } finally {
      running.delete(server);
    }
  };
  return server;
}

export async function stopAll() {
  await Promise.allSettled([...running].map((s) => s.stop(5_000)));
}

let installed = false;
export function stopChildrenOnSignals() {
  if (installed) return;
  installed = true;
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.once(signal, () => {
      process.stderr.write(`\n${signal}: stopping the servers started by the benchmark\n`);
      stopAll().finally(() => process.exit(130));
    });
  }
}
