import http from 'node:http';
import { AddressInfo } from 'node:net';
import express, { NextFunction, Request, Response } from 'express';
import { ShiftableClock } from '../clock';
import { CallbackDispatcher, DEFAULT_CALLBACK_TIMEOUT_MS } from './callbacks';
import { controlRoutes } from './control-routes';
import { SandboxDeps } from './deps';
import { errorHandler, noRoute, requirePartnerKey } from './http-errors';
import { partnerCalls } from './partner-calls';
import { partnerFastLane, partnerRouter } from './partner-routes';
import { SessionEngine } from './sessions';
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
}

export interface SandboxMessenger {
  /** base url, e.g. http://127.0.0.1:8081 */
  readonly url: string;
  /** where uploads are stored (os.tmpdir()/brandwire-sandbox-*); removed by close() */
  readonly uploadDir: string;
  /** Stops the server, waits for queued callbacks, removes the uploaded files. */
  close(): Promise<void>;
}

/** Starts the sandbox messenger: the partner API, its callbacks, a file host and the `/_sandbox` control API. */
export async function startSandboxMessenger(opts: SandboxMessengerOptions): Promise<SandboxMessenger> {
  const uploads = await UploadStore.create();
  const state = new SandboxState();
  const engine = new SessionEngine(state, opts.clock);
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
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(opts.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await uploads.close();
    dispatcher.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  uploads.publicBase = url;

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
        await uploads.close();
      })();
      return closing;
    },
  };
}
