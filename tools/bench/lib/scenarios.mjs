/** The three measured scenarios. Each starts its own server process(es), measures, and stops them. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHANNEL, TOKEN, call, createCustomers, startApi, writeSeed } from './api-service.mjs';
import { startChildServer } from './child-server.mjs';
import { track } from './children.mjs';
import { measureLoad } from './load.mjs';
import { HOT_USER, prefillJournal } from './prefill-journal.mjs';
import { sandboxFor } from './sandbox.mjs';

const CEILING_APP = fileURLToPath(new URL('../ceiling-app.cjs', import.meta.url));
const FREE_MESSENGER = fileURLToPath(new URL('../probes/free-messenger.cjs', import.meta.url));
const AUTH = { authorization: `Bearer ${TOKEN}` };

function profFlags(ctx, label) {
  if (!ctx.options.cpuProfDir) return [];
  mkdirSync(ctx.options.cpuProfDir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${ctx.options.cpuProfDir}`, `--cpu-prof-name=${label}-${process.version}-${Date.now()}.cpuprofile`];
}

/** Adds the server's last output to an error of the scenario (a crash shows as "fetch failed" otherwise). */
function withServerTail(server, error) {
  if (error instanceof Error && !error.message.includes('--- last output of')) {
    error.message += `\n--- last output of the server (pid ${server.pid}) ---\n${server.tail()}`;
  }
  return error;
}

/** 1. The ceiling: a bare NestJS 11 + Express app, GET /hello -> {"ok":true}. */
export async function ceiling(ctx, round) {
  const server = track(
    await startChildServer({
      name: 'the ceiling app',
      args: [CEILING_APP],
      cwd: ctx.repoRoot,
      env: { PORT: '0' },
      logFile: join(ctx.tmp, `ceiling-${round}.log`),
      nodeFlags: profFlags(ctx, `ceiling-${round}`),
    }),
  );
  try {
    const reply = await (await fetch(`${server.url}/hello`)).json();
    if (reply.ok !== true) throw new Error(`the ceiling app answered ${JSON.stringify(reply)}`);
    return await measureLoad({
      url: server.url,
      requests: [{ method: 'GET', path: '/hello' }],
      connections: ctx.options.connections,
      duration: ctx.options.duration,
      warmup: ctx.options.warmup,
      quietWait: ctx.options.quietWait,
      say: ctx.say,
      serverPid: server.pid,
      serverLoopUse: server.loopUse,
    });
  } catch (error) {
    throw withServerTail(server, error);
  } finally {
    await server.stop();
  }
}

/**
 * 2. Text send: POST /api/agent/send round-robin over customers with a consultation in progress. The sandbox
 * messenger runs where ctx.options.sandbox says (BENCH_SANDBOX: its own process by default, or in the API).
 */
export async function textSend(ctx, round) {
  const dataDir = join(ctx.tmp, `send-${round}`);
  const sandbox = await sandboxFor(ctx.options.sandbox, { repoRoot: ctx.repoRoot, tmp: ctx.tmp, label: `send-${round}-sandbox` });
  let server;
  try {
    server = await startApi({
      repoRoot: ctx.repoRoot,
      dataDir,
      seedFile: ctx.seedFile,
      logFile: join(ctx.tmp, `send-${round}.log`),
      logLevel: ctx.options.logLevel,
      nodeFlags: [...profFlags(ctx, `send-${round}`), ...(ctx.options.freeMessenger ? ['--require', FREE_MESSENGER] : [])],
      upstreamEnv: sandbox.apiEnv,
    });
  } catch (error) {
    await sandbox.server?.stop();
    throw error;
  }
  try {
    const customers = Array.from({ length: ctx.options.customers }, (_, i) => `buyer-${String(i).padStart(4, '0')}`);
    await createCustomers(server.url, customers, { writeCustomer: sandbox.writeCustomer });

    let next = 0;
    const answers = { ok: 0, notOk: 0, unreadable: 0, codes: {} };
    const request = {
      method: 'POST',
      path: '/api/agent/send',
      headers: { ...AUTH, 'content-type': 'application/json' },
      setupRequest(req) {
        const userKey = customers[next % customers.length];
        next += 1;
        req.body = JSON.stringify({ brandKey: CHANNEL, userKey, text: `Thanks for waiting, your parcel is on its way (#${next})` });
        return req;
      },
      onResponse(status, body) {
        let reply;
        try {
          reply = JSON.parse(body);
        } catch {
          answers.unreadable += 1;
          return;
        }
        if (reply && reply.ok === true) answers.ok += 1;
        else {
          answers.notOk += 1;
          const code = `${status}:${reply?.code}`;
          answers.codes[code] = (answers.codes[code] ?? 0) + 1;
        }
      },
    };
    const result = await measureLoad({
      url: server.url,
      requests: [request],
      connections: ctx.options.connections,
      duration: ctx.options.duration,
      warmup: ctx.options.warmup,
      quietWait: ctx.options.quietWait,
      say: ctx.say,
      serverPid: server.pid,
      serverLoopUse: server.loopUse,
      sandboxPid: sandbox.pid,
      beforeMeasure: () => Object.assign(answers, { ok: 0, notOk: 0, unreadable: 0, codes: {} }),
    });

    // the sends really were journaled: the newest item of the last customer is an agent item
    const check = await call(server.url, 'GET', `/api/agent/rooms/${customers[0]}/messages?brand=${CHANNEL}&max=1`);
    if (check.messages?.[0]?.kind !== 'agent') throw new Error(`no agent item journaled for ${customers[0]}: ${JSON.stringify(check)}`);

    return { ...result, sandbox: ctx.options.freeMessenger ? 'none (free messenger)' : sandbox.mode, okFalse: answers.notOk + answers.unreadable, okTrue: answers.ok, notOkCodes: answers.codes };
  } catch (error) {
    throw withServerTail(server, error);
  } finally {
    await server.stop();
    await sandbox.server?.stop();
  }
}

/** Makes the database of the retrieval scenario once: schema and seed by the service, items by prefill. */
export async function prepareRetrievalDatabase(ctx) {
  const dataDir = join(ctx.tmp, 'retrieval-db');
  const server = await startApi({ repoRoot: ctx.repoRoot, dataDir, seedFile: ctx.seedFile, logFile: join(ctx.tmp, 'retrieval-schema.log'), logLevel: ctx.options.logLevel });
  await server.stop();
  const fill = prefillJournal({
    repoRoot: ctx.repoRoot,
    dataDir,
    channelKey: CHANNEL,
    items: ctx.options.items,
    users: ctx.options.users,
    hotItems: ctx.options.hotItems,
  });
  return { dataDir, fill };
}

/** 3. Messages of one room of a channel holding the pre-filled items: GET .../rooms/<user>/messages?max=100. */
export async function retrieval(ctx, round) {
  const server = await startApi({
    repoRoot: ctx.repoRoot,
    dataDir: ctx.retrievalDb.dataDir,
    seedFile: ctx.seedFile,
    logFile: join(ctx.tmp, `retrieval-${round}.log`),
    logLevel: ctx.options.logLevel,
    nodeFlags: profFlags(ctx, `retrieval-${round}`),
  });
  const max = ctx.options.max;
  const path = `/api/agent/rooms/${HOT_USER}/messages?brand=${CHANNEL}&max=${max}`;
  const verify = async () => {
    const reply = await call(server.url, 'GET', path);
    const seqs = (reply.messages ?? []).map((m) => m.seq);
    const newestFirst = seqs.every((s, i) => i === 0 || seqs[i - 1] > s);
    if (reply.ok !== true || seqs.length !== max || !newestFirst || seqs[0] > ctx.retrievalDb.fill.lastSeq) {
      throw new Error(`unexpected messages answer: ok=${reply.ok}, ${seqs.length} items, newest first: ${newestFirst}`);
    }
  };
  try {
    await verify();
    const result = await measureLoad({
      url: server.url,
      requests: [{ method: 'GET', path, headers: AUTH }],
      connections: ctx.options.connections,
      duration: ctx.options.duration,
      warmup: ctx.options.warmup,
      quietWait: ctx.options.quietWait,
      say: ctx.say,
      serverPid: server.pid,
      serverLoopUse: server.loopUse,
    });
    await verify();
    // the service keeps pages of rooms read again (ROOM_CACHE_MB, inherited from this process; 0 turns it off)
    return { ...result, roomCache: process.env.ROOM_CACHE_MB === '0' ? 'off' : 'on' };
  } catch (error) {
    throw withServerTail(server, error);
  } finally {
    await server.stop();
  }
}
