#!/usr/bin/env node
/**
 * Summarises V8 CPU profiles (from `BENCH_CPU_PROF=<dir> node tools/bench/run.mjs`, or `node --cpu-prof`):
 * the share of each layer (the app's own code, each package in node_modules, Node internals, GC, idle)
 * and the functions with the most self time.
 *
 *   node tools/bench/profile-summary.mjs <file.cpuprofile> [--top 30] [--from-ms 0 | --last-ms 10000] [--layer <name>]
 *        [--inclusive 40]   (also the functions with the most inclusive time: self + callees)
 *
 * --last-ms: only the last part of the profile (the measured load ends just before the server is stopped,
 * so --last-ms <BENCH_DURATION*1000> leaves out start-up, customer creation and the warm-up).
 */
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const files = args.filter((a, i) => !a.startsWith('--') && !(args[i - 1] ?? '').startsWith('--'));
const flag = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const TOP = Number(flag('top', 30));
const FROM_MS = Number(flag('from-ms', 0));
const LAST_MS = flag('last-ms', undefined) === undefined ? undefined : Number(flag('last-ms'));
const ONLY_LAYER = flag('layer', undefined);
const INCLUSIVE = Number(flag('inclusive', 0));

/** Which layer a script belongs to. */
export function layerOf(url, functionName) {
  if (!url) {
    if (functionName === '(garbage collector)') return 'GC';
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(program)') return '(program: native, not attributed)';
    return `native: ${functionName || '?'}`;
  }
  const path = url.replace(/^file:\/\//, '');
  const nm = path.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = path.slice(nm + '/node_modules/'.length).split('/');
    return `npm: ${rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`;
  }
  if (path.startsWith('node:')) return `node: ${path.slice(5).split('/')[0]}`;
  const app = /\/(apps|libs)\/([^/]+)\/(dist|src)\/(.*)$/.exec(path);
  if (app) return `${app[1]}/${app[2]}: ${app[4].split('/')[0].replace(/\.js$/, '')}`;
  if (path.includes('/tools/bench/')) return 'tools/bench';
  return path;
}

function summarise(file) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  // samples and timeDeltas: time spent in the sampled node (its self time)
  const from = LAST_MS === undefined ? FROM_MS : (profile.endTime - profile.startTime) / 1000 - LAST_MS;
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    t += profile.timeDeltas[i] ?? 0;
    if ((t - profile.startTime) / 1000 < from) continue;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + Math.max(0, delta));
  }
  const layers = new Map();
  const functions = new Map();
  let total = 0;
  let busy = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    const { functionName, url, lineNumber } = node.callFrame;
    const layer = layerOf(url, functionName);
    total += us;
    if (layer !== 'idle') busy += us;
    layers.set(layer, (layers.get(layer) ?? 0) + us);
    if (ONLY_LAYER && !layer.startsWith(ONLY_LAYER)) continue;
    const key = `${functionName || '(anonymous)'}  ${url ? `${url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(/^.*\/(apps|libs)\//, '$1/')}:${lineNumber + 1}` : ''}`;
    functions.set(key, (functions.get(key) ?? 0) + us);
  }
  // inclusive time: a sample counts for every distinct function on its stack
  const inclusive = new Map();
  if (INCLUSIVE > 0) {
    const parent = new Map();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const label = (n) => `${n.callFrame.functionName || '(anonymous)'}  ${n.callFrame.url ? `${n.callFrame.url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(/^.*\/(apps|libs)\//, '$1/')}:${n.callFrame.lineNumber + 1}` : ''}`;
    for (const [id, us] of selfUs) {
      if (byId.get(id).callFrame.functionName === '(idle)') continue;
      const seen = new Set();
      for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
        const key = label(byId.get(cur));
        if (seen.has(key)) continue;
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + us);
      }
    }
  }
  const ms = (us) => (us / 1000).toFixed(0).padStart(7);
  const pct = (us) => `${((us / busy) * 100).toFixed(1)}%`.padStart(6);
  console.log(`\n== ${file}\nsampled ${ms(total)} ms, busy (not idle) ${ms(busy)} ms\n`);
  console.log('self time by layer (% of busy):');
  for (const [layer, us] of [...layers].sort((a, b) => b[1] - a[1])) {
    if (layer === 'idle') continue;
    if (us / busy < 0.003) continue;
    console.log(`  ${pct(us)} ${ms(us)} ms  ${layer}`);
  }
  if (INCLUSIVE > 0) {
    console.log(`\ntop ${INCLUSIVE} functions by inclusive time (self + callees, % of busy):`);
    for (const [key, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, INCLUSIVE)) console.log(`  ${pct(us)} ${ms(us)} ms  ${key}`);
  }
  console.log(`\ntop ${TOP} functions by self time${ONLY_LAYER ? ` in ${ONLY_LAYER}` : ''} (% of busy):`);
  for (const [key, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`  ${pct(us)} ${ms(us)} ms  ${key}`);
  }
}

if (files.length === 0) {
  console.error('usage: node tools/bench/profile-summary.mjs <file.cpuprofile>... [--top 30] [--from-ms 0 | --last-ms 10000] [--layer npm:]');
  process.exit(2);
}
for (const file of files) summarise(file);
