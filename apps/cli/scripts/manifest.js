#!/usr/bin/env node
'use strict';
// Part of `npm run build`: writes oclif.manifest.json (the command list oclif reads instead of loading every command
// at start-up) when it is missing or older than the compiled commands. Uses `oclif manifest` (dev dependency).
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const manifest = join(root, 'oclif.manifest.json');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : entry.name.endsWith('.js') ? statSync(path).mtimeMs : 0);
  }
  return latest;
}

const commands = join(root, 'dist', 'commands');
if (!existsSync(commands)) {
  console.error('manifest: dist/commands is missing: compile first (npm run build)');
  process.exit(1);
}
const sources = Math.max(newest(join(root, 'dist')), statSync(join(root, 'package.json')).mtimeMs);
if (existsSync(manifest) && statSync(manifest).mtimeMs >= sources && !process.argv.includes('--force')) process.exit(0);

let oclifBin;
try {
  oclifBin = join(require.resolve('oclif/package.json', { paths: [root] }), '..', 'bin', 'run.js');
} catch {
  console.error('manifest: the oclif dev dependency is not installed; the tool works without a manifest, only starts slower');
  process.exit(0);
}
execFileSync(process.execPath, [oclifBin, 'manifest'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_ENV: 'production', OCLIF_SKIP_NEW_VERSION_CHECK: 'true' } });
