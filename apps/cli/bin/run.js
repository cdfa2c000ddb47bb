#!/usr/bin/env node
'use strict';
// The tool itself (oclif 4, commands from dist/ and oclif.manifest.json). `bin/brandwire` runs this file in a child
// process and forwards signals to it; programs may run it directly: see `brandwire env --json` (binaryPath, binaryArgs).
const { settings } = require('@oclif/core/settings');

// Always the compiled commands, also when NODE_ENV is "development" or "test" (oclif would look for TypeScript).
settings.enableAutoTranspile = false;

// --json is global: `brandwire --json whoami` means `brandwire whoami --json` (oclif reads the first word as the command).
const argv = process.argv.slice(2);
const args = argv[0] === '--json' && argv.length > 1 ? [...argv.slice(1), '--json'] : argv;

require('@oclif/core/execute')
  .execute({ dir: __dirname, args })
  .catch((error) => {
    process.stderr.write(`brandwire: ${error && error.message ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
