#!/usr/bin/env node
// Start-up time of the command-line tool, beside a bare `node -e 0` in the same run (same machine load):
//   brandwire env --json   target: median <= 250 ms
//   brandwire --help       target: median <= 350 ms
// Each is run as a person runs it (the launcher bin/brandwire, which runs the tool in its own process), and
// `env --json` also as a program runs it (binaryPath + binaryArgs from `env --json`, no launcher).
// NODE_EXTRA_CA_CERTS is unset for every run: it costs ~140 ms per Node process on this machine and is not the tool's.
// Needs the build (npm run build). Usage: node tools/bench/cli-startup.mjs [--runs 15] [--check]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const launcher = join(root, 'apps/cli/bin/brandwire');
const runJs = join(root, 'apps/cli/bin/run.js');
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 15;
const check = args.includes('--check');

const configDir = mkdtempSync(join(tmpdir(), 'brandwire-bench-'));
const env = { ...process.env, BRANDWIRE_CONFIG_DIR: configDir };
for (const name of ['NODE_EXTRA_CA_CERTS', 'BRANDWIRE_TOKEN', 'BRANDWIRE_ENDPOINT', 'NODE_OPTIONS']) delete env[name];

const cases = [
  { name: 'node -e 0', file: process.execPath, argv: ['-e', '0'] },
  { name: 'brandwire env --json', file: launcher, argv: ['env', '--json'], target: 250 },
  { name: 'brandwire --help', file: launcher, argv: ['--help'], target: 350 },
  { name: 'env --json via binaryPath+binaryArgs', file: process.execPath, argv: [runJs, 'env', '--json'] },
];

function once(c) {
  const started = process.hrtime.bigint();
  const result = spawnSync(c.file, c.argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${c.name} exited with ${result.status}: ${result.stderr}`);
  return ms;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

// the load average before and after: a busy machine (2 cores here) slows every case, the launcher's most
const load = () => loadavg()[0].toFixed(2);
const loadBefore = load();

try {
  for (const c of cases) once(c); // warm the file cache
  const times = new Map(cases.map((c) => [c.name, []]));
  // interleaved, so a burst of load on the machine hits every case alike
  for (let i = 0; i < runs; i++) for (const c of cases) times.get(c.name).push(once(c));

  const base = median(times.get('node -e 0'));
  console.log(`CLI start-up on node ${process.version}, ${runs} runs each, NODE_EXTRA_CA_CERTS unset, load average ${loadBefore} before, ${load()} after`);
  console.log('case                                   median     min  ratio to node -e 0  target');
  let failed = false;
  for (const c of cases) {
    const m = median(times.get(c.name));
    const verdict = c.target ? (m <= c.target ? `<= ${c.target} ms ok` : `> ${c.target} ms MISSED`) : '';
    if (c.target && m > c.target) failed = true;
    console.log(
      `${c.name.padEnd(37)} ${m.toFixed(0).padStart(6)} ms ${Math.min(...times.get(c.name)).toFixed(0).padStart(4)} ms ${(m / base).toFixed(1).padStart(8)}x           ${verdict}`,
    );
  }
  if (check && failed) process.exitCode = 1;
} finally {
  rmSync(configDir, { recursive: true, force: true });
}
