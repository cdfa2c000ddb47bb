#!/usr/bin/env node
// npm 11.16+ leaves out of package-lock.json the optional platform binaries that the registry it resolved
// against does not serve (here: some darwin, windows and exotic-linux builds of @swc/core and unrs-resolver),
// and then `npm ci` refuses that very lockfile ("Missing: <name>@ from lock file"). This adds each missing
// optional binary back as an entry with its os/cpu, so `npm ci` accepts the lock and skips the package on
// every platform it is not for, exactly as it would with a complete lock. Run after changing dependencies:
//   node tools/lockfile/complete-platform-binaries.mjs
// With --check it only reports missing entries and exits 1 when there are any (part of `npm test`).
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openharmony', 'win32', 'sunos', 'aix', 'netbsd', 'openbsd'];
const CPU = { arm64: 'arm64', aarch64: 'arm64', x64: 'x64', ia32: 'ia32', arm: 'arm', ppc64: 'ppc64', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64', wasm32: 'wasm32' };

/** os, cpu and libc read from a platform package name such as @swc/core-linux-arm-gnueabihf. */
function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  const libc = parts.some((p) => p.startsWith('musl')) ? 'musl' : parts.some((p) => p.startsWith('gnu')) ? 'glibc' : undefined;
  return os && cpu ? { os, cpu, libc } : undefined;
}

const check = process.argv.includes('--check');
let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const parent = path === '' ? '' : `${path}/`;
    if (packages[`${parent}node_modules/${dep}`] || packages[`node_modules/${dep}`]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    packages[`node_modules/${dep}`] = {
      version,
      cpu: [platform.cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(platform.libc ? { libc: [platform.libc] } : {}),
      optional: true,
      os: [platform.os],
    };
    added += 1;
  }
}
if (check) {
  if (added > 0) {
    console.error(`package-lock.json misses ${added} optional platform binaries: run node tools/lockfile/complete-platform-binaries.mjs`);
    process.exit(1);
  }
  process.exit(0);
}
const sorted = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))));
lock.packages = sorted;
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} optional platform binaries to package-lock.json`);
