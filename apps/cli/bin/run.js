#!/usr/bin/env node
'use strict';
// The tool itself (oclif 4, commands from dist/ and oclif.manifest.json). `bin/brandwire` runs this file in a child
// process and forwards signals to it; programs may run it directly: see `brandwire env --json` (binaryPath, binaryArgs).
const { settings } = require('@oclif/core/settings');

// Always the compiled commands, also when NODE_ENV is "development" or "test" (oclif would look for TypeScript).
settings.enableAutoTranspile = false;

// --json is global: `brandwire --json whoami` means `brandwire whoami --json` (oclif reads the first word as the command).
const argv = process.argv.slice(2);
const moved = argv[0] === '--json' && argv.length > 1 ? [...argv.slice(1), '--json'] : argv;
// `schedule set` names its input file with --json (as the spec has it) and always prints JSON: there a bare
// --json (no file after it) is the global flag, which adds nothing, and is dropped so that it is not read twice.
const scheduleSet = moved[0] === 'schedule' && moved[1] === 'set';
const args = scheduleSet ? moved.filter((arg, i) => arg !== '--json' || (moved[i + 1] !== undefined && !moved[i + 1].startsWith('--'))) : moved;

require('@oclif/core/execute')
  .execute({ dir: __dirname, args })
  .catch((error) => {
    process.stderr.write(`brandwire: ${error && error.message ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
