import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import express, { NextFunction, Request, Response } from 'express';
import { ShiftableClock } from '../clock';
import { RepeatPolicy } from './callback-repeats';
import { CallbackDispatcher, DEFAULT_CALLBACK_TIMEOUT_MS } from './callbacks';
import { ClockKeeper, readClockOffset } from './clock-file';
import { controlRoutes } from './control-routes';
import { SandboxDeps } from './deps';
import { errorHandler, noRoute, requirePartnerKey } from './http-errors';
import { partnerCalls } from './partner-calls';
import { PartnerFaults } from './partner-faults';
import { partnerFastLane, partnerRouter } from './partner-routes';
import { SessionEngine } from './sessions';
import { readSnapshot, removeSnapshot, writeSnapshot } from './snapshot';
import { SandboxState } from './state';
import { longTextHost } from './long-texts';
import { fileHost, uploadRoutes } from './upload-routes';
import { UploadStore } from './uploads';

export interface SandboxMessengerOptions {
  /** default 127.0.0.1 */
  host?: string;
  /** 0 (default) = an ephemeral port */
  port?: number;
  partnerKey: string;
  clock: ShiftableClock;
  /** host of customer attachment urls (`https://<attachmentHost>/<id>.<ext>`) */
  attachmentHost: string;
  /** how long a callback may take before it counts as failed; default 5 s */
  callbackTimeoutMs?: number;
  /** when a callback without a 2xx answer is sent again; default 1 s doubling to 60 s, for 24 h of `clock` */
  callbackRepeats?: RepeatPolicy;
  /**
   * A folder the sandbox keeps its state in across restarts (customers, chats, sessions, uploads, the clock);
   * without one it starts empty and forgets everything when closed. A start that fails leaves it as it was; one
   * that cannot read it throws SandboxStateError.
   */
  stateDir?: string;
  /** told what its user should know: the previous port was taken at the start, callbacks were dropped unsent */
  onNotice?: (message: string) => void;
}

export interface SandboxMessenger {
  /** base url, e.g. http://127.0.0.1:8081 */
  readonly url: string;
  /** where uploads are stored: `<stateDir>/files`, else os.tmpdir()/brandwire-sandbox-* (removed by close()) */
  readonly uploadDir: string;
  /**
   * Stops the server, waits for callbacks not sent yet (one send each; callbacks waiting to be repeated are
   * dropped), then keeps the state in `stateDir` or removes the uploaded files.
   */
  close(): Promise<void>;
}

/** Starts the sandbox messenger: the partner API, its callbacks, a file host and the `/_sandbox` control API. */
export async function startSandboxMessenger(opts: SandboxMessengerOptions): Promise<SandboxMessenger> {
  const { stateDir } = opts;
  const state = new SandboxState();
  const engine = new SessionEngine(state, opts.clock);
  const keptOffset = stateDir === undefined ? undefined : await readClockOffset(stateDir);
  const kept = stateDir === undefined ? undefined : await readSnapshot(stateDir, state, engine);
  const filesDir = stateDir === undefined ? undefined : join(stateDir, 'files');
  // without a snapshot (first start, or after a crash) files kept before are no one's uploads
  if (filesDir !== undefined && !kept) await rm(filesDir, { recursive: true, force: true });
  const uploads = await UploadStore.create(filesDir);
  const clockKeeper = stateDir === undefined ? undefined : new ClockKeeper(stateDir, opts.clock);
  const dispatcher = new CallbackDispatcher({
    callbackUrl: () => state.callbackUrl,
    partnerKey: opts.partnerKey,
    timeoutMs: opts.callbackTimeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS,
    clock: opts.clock,
    ...(opts.callbackRepeats ? { repeats: opts.callbackRepeats } : {}),
    ...(opts.onNotice ? { onNotice: opts.onNotice } : {}),
  });
  const deps: SandboxDeps = {
    state,
    engine,
    dispatcher,
    uploads,
    clock: opts.clock,
    attachmentHost: opts.attachmentHost,
    bootId: randomUUID(),
    faults: new PartnerFaults(),
    advanceClock: async (ms) => {
      if (clockKeeper) await clockKeeper.advance(ms);
      else opts.clock.advance(ms);
    },
  };

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.get('/files/:name', fileHost(deps));
  app.get('/texts/:name', longTextHost(deps));
  const auth = requirePartnerKey(opts.partnerKey);
  // sessions whose 30 days passed end before anything else happens (a heap peek when none did)
  const sweep = (_req: Request, res: Response, next: NextFunction) => {
    const due = engine.sweep();
    if (due.length > 0) (res.locals as { swept?: unknown }).swept = dispatcher.enqueueAll(due);
    next();
  };
  const calls = deps.faults.wrap(partnerCalls(deps));
  app.use('/v1', auth, sweep, uploadRoutes(deps));
  app.use(partnerRouter(calls));
  app.use('/_sandbox', auth, sweep, controlRoutes(deps));
  app.use(noRoute);
  app.use(errorHandler);

  const fastLane = partnerFastLane(calls, {
    partnerKey: opts.partnerKey,
    beforeCall: () => {
      const due = engine.sweep();
      if (due.length > 0) void dispatcher.enqueueAll(due);
    },
  });
  const server = http.createServer((req, res) => {
    if (!fastLane(req, res)) app(req, res);
  });
  server.keepAliveTimeout = 30_000;
  const host = opts.host ?? '127.0.0.1';
  let url: string;
  let listening: number;
  try {
    // an ephemeral port is the previous run's again when it is free: the urls of its uploads stay valid
    listening = await listenOn(server, host, opts.port ?? 0, kept?.port, opts.onNotice);
    url = `http://${host.includes(':') ? `[${host}]` : host}:${listening}`;
    // no request is handled before the next await: the sandbox is whole when it first answers
    if (keptOffset !== undefined) opts.clock.setOffset(keptOffset);
    uploads.publicBase = url;
    if (kept) uploads.adopt(kept.uploads);
    if (kept && stateDir !== undefined) await removeSnapshot(stateDir);
  } catch (err) {
    server.close();
    await uploads.close();
    dispatcher.close();
    throw err;
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    uploadDir: uploads.dir,
    close: () => {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await dispatcher.idle();
        dispatcher.close();
        server.closeAllConnections();
        await stopped;
        await clockKeeper?.keep();
        if (stateDir !== undefined) await writeSnapshot(stateDir, { state, uploads: uploads.list(), port: listening });
        await uploads.close();
      })();
      return closing;
    },
  };
}

/** Listens on `port`, or on the previous run's port when `port` is 0 and that one is free; returns the port. */
async function listenOn(
  server: http.Server,
  host: string,
  port: number,
  previous: number | undefined,
  onNotice: ((message: string) => void) | undefined,
): Promise<number> {
  if (port === 0 && previous !== undefined) {
    if (await listen(server, previous, host).then(() => true, () => false)) return previous;
    await listen(server, 0, host);
    const other = portOf(server);
    onNotice?.(`the sandbox's previous port ${previous} is taken: it listens on ${other}, and the urls of earlier uploads and long texts no longer work`);
    return other;
  }
  await listen(server, port, host);
  return portOf(server);
}

function portOf(server: http.Server): number {
  return (server.address() as AddressInfo).port;
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
