/** Runs the sandbox messenger standalone (`npm run sandbox`); see runStandaloneSandbox for its environment. */
import { runStandaloneSandbox } from './sandbox/standalone';

void runStandaloneSandbox({
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  exit: (code) => process.exit(code),
  signals: process,
});
