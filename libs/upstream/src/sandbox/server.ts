import http from 'node:http';
import { AddressInfo } from 'node:net';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import express, { NextFunction, Request, Response } from 'express';
import { ShiftableClock } from '../clock';
import { CallbackDispatcher, DEFAULT_CALLBACK_TIMEOUT_MS } from './callbacks';
import { controlRoutes } from './control-routes';
import { SandboxDeps } from './deps';
import { errorHandler, noRoute, requirePartnerKey } from './http-errors';
import { partnerCalls } from './partner-calls';
import { partnerFastLane, partnerRouter } from './partner-routes';
import { SessionEngine } from './sessions';
import { restore, snapshotOf, takeSnapshot, writeSnapshot } from './snapshot';
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
  /**
   * A folder the sandbox keeps its state in across restarts (customers, chats, sessions, uploads, the clock);
   * without one it starts empty and forgets everything when closed.
   */
  stateDir?: string;
}

export interface SandboxMessenger {
  /** base url, e.g. http://127.0.0.1:8081 */
  readonly url: string;
  /** where uploads are stored: `<stateDir>/files`, else os.tmpdir()/brandwire-sandbox-* (removed by close()) */
  readonly uploadDir: string;
  /** Stops the server, waits for queued callbacks, then keeps the state in `stateDir` or removes the uploaded files. */
  close(): Promise<void>;
}

/** Starts the sandbox messenger: the partner API, its callbacks, a file host and the `/_sandbox` control API. */
export async function startSandboxMessenger(opts: SandboxMessengerOptions): Promise<SandboxMessenger> {
  const { stateDir } = opts;
  const snapshot = stateDir === undefined ? undefined : await takeSnapshot(stateDir);
  const filesDir = stateDir === undefined ? undefined : join(stateDir, 'files');
  // without a snapshot (first start, or after a crash) files kept before are no one's uploads
  if (filesDir !== undefined && !snapshot) await rm(filesDir, { recursive: true, force: true });
  const uploads = await UploadStore.create(filesDir);
  const state = new SandboxState();
  const engine = new SessionEngine(state, opts.clock);
  if (snapshot) restore(snapshot, state, engine, opts.clock);
  const dispatcher = new CallbackDispatcher(
    () => state.callbackUrl,
    opts.partnerKey,
    opts.callbackTimeoutMs ?? DEFAULT_CALLBACK_TIMEOUT_MS,
  );
  const deps: SandboxDeps = { state, engine, dispatcher, uploads, clock: opts.clock, attachmentHost: opts.attachmentHost };

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
  const calls = partnerCalls(deps);
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
  const port = opts.port ?? 0;
  try {
    // an ephemeral port is the previous run's again when it is free: the urls of its uploads stay valid
    const previous = port === 0 ? snapshot?.port : undefined;
    if (previous === undefined || !(await listen(server, previous, host).then(() => true, () => false))) {
      await listen(server, port, host);
    }
  } catch (err) {
    await uploads.close();
    dispatcher.close();
    throw err;
  }
  const listening = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${listening}`;
  uploads.publicBase = url;
  if (snapshot) uploads.adopt(snapshot.uploads);

  let closing: Promise<void> | undefined;
  return {
    url,
    uploadDir: uploads.dir,
    close: () => {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await dispatcher.idle();
        server.closeAllConnections();
        await stopped;
        dispatcher.close();
        if (stateDir !== undefined) await writeSnapshot(stateDir, snapshotOf(state, uploads, opts.clock, listening));
        await uploads.close();
      })();
      return closing;
    },
  };
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
