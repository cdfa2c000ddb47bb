/** The real Brandwire API (apps/api/dist/main.js) as a child process, with a one-channel seed. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChildServer } from './child-server.mjs';
import { track } from './children.mjs';

export const BRAND = 'bench';
export const CHANNEL = 'bench-kakao';
export const TOKEN = 'bench-writer-token-000000001';

export const SEED = {
  brands: [{ id: BRAND, name: 'Bench', channels: [{ key: CHANNEL, name: 'Bench Kakao', type: 'kakao', plan: { consultations: 1_000_000_000 } }] }],
  keys: [{ token: TOKEN, name: 'bench-agent', scope: 'BrandWrite', brands: [BRAND] }],
};

export function writeSeed(dir) {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'seed.json');
  writeFileSync(file, JSON.stringify(SEED, null, 2));
  return file;
}

/** RATE_LIMIT_PER_KEY of the benchmarked services. */
export const BENCH_RATE_LIMIT = '1000000000';

/**
 * @param {object} o
 * @param {string} o.repoRoot
 * @param {string} o.dataDir      BRANDWIRE_DATA_DIR
 * @param {string} o.seedFile     BRANDWIRE_SEED
 * @param {string} o.logFile
 * @param {string} [o.logLevel]   LOG_LEVEL (unset: the service default)
 * @param {string[]} [o.nodeFlags]
 * @param {Record<string,string>} [o.upstreamEnv]  UPSTREAM_URL and UPSTREAM_PARTNER_KEY of a sandbox process (none: embedded)
 */
export async function startApi({ repoRoot, dataDir, seedFile, logFile, logLevel, nodeFlags = [], upstreamEnv = {} }) {
  // one key makes every request of a run: its rate limit is counted, as in service, but set past what a run makes
  const env = { PORT: '0', BRANDWIRE_DATA_DIR: dataDir, BRANDWIRE_SEED: seedFile, RATE_LIMIT_PER_KEY: BENCH_RATE_LIMIT };
  if (logLevel) env.LOG_LEVEL = logLevel;
  // a DATABASE_URL or UPSTREAM_URL of the calling shell must not leak in: this is the SQLite + sandbox setup
  // (the sandbox in the API process unless upstreamEnv points at one of its own)
  const server = await startChildServer({
    name: 'the API service',
    args: ['apps/api/dist/main.js'],
    cwd: repoRoot,
    env: { ...env, DATABASE_URL: '', UPSTREAM_URL: '', ...upstreamEnv },
    logFile,
    nodeFlags,
  });
  return track(server);
}

/**
 * One JSON request to the service with the bench key; throws on a non-2xx status. A connection that fails
 * before any answer ("fetch failed": e.g. a kept-alive socket the server closed while the machine was too
 * busy for the client to notice in time) is retried twice; the requests used here tolerate a repeat.
 */
export async function call(url, method, path, body, attempts = 3) {
  let response;
  try {
    response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch (error) {
    if (attempts <= 1) throw new Error(`${method} ${path}: ${error.message} (${error.cause?.code ?? error.cause?.message ?? 'no cause'})`, { cause: error });
    await new Promise((r) => setTimeout(r, 200));
    return call(url, method, path, body, attempts - 1);
  }
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered HTTP ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text);
}

/**
 * Each customer writes once through the sandbox, which starts a consultation (a session in progress): through
 * `writeCustomer(channelKey, userKey, text)` of a sandbox process, or else the API's /sandbox routes (embedded).
 */
export async function createCustomers(url, userKeys, { parallel = 10, writeCustomer } = {}) {
  let next = 0;
  const worker = async () => {
    while (next < userKeys.length) {
      const userKey = userKeys[next++];
      const text = `hello from ${userKey}`;
      if (writeCustomer) {
        await writeCustomer(CHANNEL, userKey, text);
        continue;
      }
      const reply = await call(url, 'POST', `/sandbox/customers/${encodeURIComponent(userKey)}/messages`, { brandKey: CHANNEL, text });
      if (reply.ok !== true) throw new Error(`customer ${userKey} could not write: ${JSON.stringify(reply)}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, userKeys.length) }, worker));
}
