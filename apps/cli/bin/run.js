#!/usr/bin/env node
'use strict';
// The tool itself (oclif 4, commands from dist/ and oclif.manifest.json). `bin/brandwire` loads this file in its own
// process (`knowledge build`: in a child process it forwards signals to); programs may run it directly: see
// `brandwire env --json` (binaryPath, binaryArgs).
const { settings } = require('@oclif/core/settings');

// Always the compiled commands, also when NODE_ENV is "development" or "test" (oclif would look for TypeScript).
settings.enableAutoTranspile = false;

require('@oclif/core/execute')
  .execute({ dir: __dirname })
  .catch((error) => {
    process.stderr.write(`brandwire: ${error && error.message ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
