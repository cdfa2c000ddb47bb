/**
 * Where the sandbox messenger runs in a benchmark (BENCH_SANDBOX):
 *   process   (default) as a process of its own (`node libs/upstream/dist/sandbox-main.js`), as the messenger is a
 *             system of its own in production: the API is pointed at it with UPSTREAM_URL, and customers write
 *             through the sandbox's own control API, so the API process does only the service's work
 *   embedded  the `npm start` set-up: the sandbox inside the API process, customers written through the API's
 *             /sandbox routes; the sandbox's HTTP server and logic are billed to the API
 */
import { createHash } from 'node:crypto';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { startChildServer } from './child-server.mjs';
import { track } from './children.mjs';

export const SANDBOX_MODES = ['process', 'embedded'];
export const PARTNER_KEY = 'bench-partner-key';

/** BENCH_SANDBOX, checked. */
export function sandboxMode(raw = process.env.BENCH_SANDBOX) {
  const mode = raw || 'process';
  if (!SANDBOX_MODES.includes(mode)) throw new Error(`BENCH_SANDBOX must be ${SANDBOX_MODES.join(' or ')}, got ${mode}`);
  return mode;
}

/** The sandbox's id of a channel (libs/upstream senderKeyOf). */
export function senderKeyOf(channelKey) {
  return createHash('sha1').update(channelKey, 'utf8').digest('hex');
}

/** The load's own HTTP client: node:http on keep-alive sockets, lighter than fetch, so it takes less of the CPUs it shares. */
const loadAgent = new Agent({ keepAlive: true, maxSockets: 256 });

/**
 * One JSON POST on the keep-alive agent. A kept-alive socket the server has just closed for idleness fails at
 * once with ECONNRESET (nothing was processed): that one is sent again on a fresh socket.
 */
export async function postJson(url, headers, body) {
  try {
    return await postJsonOnce(url, headers, body);
  } catch (error) {
    if (error.code !== 'ECONNRESET') throw error;
    return postJsonOnce(url, headers, body);
  }
}

function postJsonOnce(url, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: loadAgent, headers: { ...headers, 'content-type': 'application/json' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (text += c));
      res.on('end', () => {
        try {
          resolve({ status: res.statusCode, json: JSON.parse(text) });
        } catch {
          reject(new Error(`POST ${url}: HTTP ${res.statusCode}, not JSON: ${text.slice(0, 300)}`));
        }
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * Starts the sandbox messenger as its own process (tracked: stopAll stops it).
 * @returns the child server, its pid, the environment that points the API at it, and a customer writer
 *   `writeCustomer(channelKey, userKey, text)` that resolves with the sandbox's answer to its control call
 *   (throws unless the customer message was taken and its `/message` callback answered 200).
 */
export async function startSandboxProcess({ repoRoot, logFile }) {
  const sandbox = track(
    await startChildServer({
      name: 'the sandbox messenger',
      args: ['libs/upstream/dist/sandbox-main.js'],
      cwd: repoRoot,
      env: { SANDBOX_PORT: '0', SANDBOX_PARTNER_KEY: PARTNER_KEY },
      logFile,
    }),
  );
  return {
    server: sandbox,
    pid: sandbox.pid,
    apiEnv: { UPSTREAM_URL: sandbox.url, UPSTREAM_PARTNER_KEY: PARTNER_KEY },
    async writeCustomer(channelKey, userKey, text) {
      const { status, json } = await postJson(`${sandbox.url}/_sandbox/customers/${encodeURIComponent(userKey)}/messages`, { 'x-partner-key': PARTNER_KEY }, { senderKey: senderKeyOf(channelKey), text });
      const callback = json.callbacks?.find((c) => c.path === '/message');
      if (status !== 200 || !json.ok || callback?.status !== 200) throw new Error(`customer message refused: HTTP ${status} ${JSON.stringify(json).slice(0, 300)}`);
      return { seq: callback.body.seq };
    },
  };
}

/** The sandbox for a benchmark in `mode`: started as a process, or nothing to start (embedded in the API). */
export async function sandboxFor(mode, { repoRoot, tmp, label = 'sandbox' }) {
  if (mode === 'embedded') return { mode, apiEnv: {}, pid: undefined, server: undefined, writeCustomer: undefined };
  return { mode, ...(await startSandboxProcess({ repoRoot, logFile: join(tmp, `${label}.log`) })) };
}
