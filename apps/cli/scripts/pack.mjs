#!/usr/bin/env node
// Packs the CLI as a tarball that `npm install -g` can install anywhere: the unpublished workspace packages it uses
// (@brandwire/client, @brandwire/domain, @brandwire/knowledge, @brandwire/knowledge-web and the @brandwire/gateway
// daemon) go inside it as bundled dependencies, and their own registry dependencies (kuzu, cytoscape, ...) become
// the CLI's. Run after `npm run build`. Usage: node apps/cli/scripts/pack.mjs [destination folder]
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(cli, '../..');
const destination = resolve(process.argv[2] ?? process.cwd());
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'));
// a workspace package's folder (libs/<name> or apps/<name>), through the workspace's node_modules link
const workspaceFolder = (name) => realpathSync(join(root, 'node_modules', name));

/** Copies the compiled JavaScript of a package folder (dist/**\/*.js, test helpers left out) and the listed files. */
function copyPackage(from, to, extra) {
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.js') && e.name !== 'testing.js' ? [join(dir, e.name)] : []));
  if (!existsSync(join(from, 'dist'))) throw new Error(`${relative(root, from)}/dist is missing: run npm run build first`);
  for (const file of [...walk(join(from, 'dist')), ...extra.map((f) => join(from, f)).filter(existsSync)]) {
    const target = join(to, relative(from, file));
    mkdirSync(dirname(target), { recursive: true });
    cpSync(file, target, { recursive: true });
  }
}

const pkg = readJson(join(cli, 'package.json'));
const bundled = Object.keys(pkg.dependencies).filter((name) => name.startsWith('@brandwire/'));
const staging = mkdtempSync(join(tmpdir(), 'brandwire-pack-'));
try {
  if (!existsSync(join(cli, 'oclif.manifest.json'))) throw new Error('apps/cli/oclif.manifest.json is missing: run npm run build first');
  copyPackage(cli, staging, ['bin', 'oclif.manifest.json', 'README.md']);
  const dependencies = { ...pkg.dependencies };
  for (const name of bundled) {
    const from = workspaceFolder(name);
    const lib = readJson(join(from, 'package.json'));
    const target = join(staging, 'node_modules', name);
    copyPackage(from, target, []);
    // npm takes the dependencies of a bundled package for bundled too: its registry ones move to the CLI, which
    // installs them where the bundled code finds them (the CLI's node_modules)
    const own = {};
    for (const [dep, range] of Object.entries(lib.dependencies ?? {})) {
      if (dep.startsWith('@brandwire/')) own[dep] = range;
      else dependencies[dep] ??= range;
    }
    writeFileSync(join(target, 'package.json'), `${JSON.stringify({ ...lib, dependencies: own }, null, 2)}\n`);
  }
  const packed = { ...pkg, dependencies, bundleDependencies: bundled, files: ['bin', 'dist', 'oclif.manifest.json', 'README.md'] };
  delete packed.devDependencies;
  delete packed.scripts;
  delete packed.private;
  writeFileSync(join(staging, 'package.json'), `${JSON.stringify(packed, null, 2)}\n`);
  mkdirSync(destination, { recursive: true });
  const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', destination], { cwd: staging, encoding: 'utf8' }).trim().split('\n').pop();
  console.log(join(destination, out));
} finally {
  rmSync(staging, { recursive: true, force: true });
}
