'use strict';
// Loaded with NODE_OPTIONS=--require by the launcher test, in every Node process of a run. Active only in the process
// that runs the tool (the one that loaded oclif once its main module ran: the child the launcher starts): it reports
// that process's pid, Node flags and MALLOC_ARENA_MAX, then each signal it gets on stderr and exits with a code of its
// own, proving the signal came.
setImmediate(() => {
  if (!Object.keys(require.cache).some((path) => path.includes('@oclif/core'))) return;
  const codes = { SIGINT: 70, SIGTERM: 71, SIGHUP: 72 };
  if (process.env.PROBE_MODE === 'handle') {
    for (const [signal, code] of Object.entries(codes)) {
      process.on(signal, () => {
        process.stderr.write(`probe: got ${signal}\n`);
        process.exit(code);
      });
    }
  }
  // stay alive after the command is done, until a signal comes
  setInterval(() => undefined, 1000);
  const arenas = process.env.MALLOC_ARENA_MAX ?? 'unset';
  process.stderr.write(`probe: ready in ${process.pid} flags [${process.execArgv.join(' ')}] MALLOC_ARENA_MAX ${arenas}\n`);
});
