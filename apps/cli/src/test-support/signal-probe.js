'use strict';
// Loaded with NODE_OPTIONS=--require by the launcher test. Active only in the tool's own process (bin/run.js), not in
// the launcher: it reports each forwarded signal on stderr and exits with a code of its own, proving the signal came.
const { basename } = require('node:path');

if (basename(process.argv[1] || '') === 'run.js') {
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
  process.stderr.write(`probe: ready in ${process.pid}\n`);
}
