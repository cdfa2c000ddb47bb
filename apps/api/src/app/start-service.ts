import { join } from 'node:path';
import { SerialGenerator } from '@brandwire/domain';
import { type FirstStartLock, type Store, openStore } from '@brandwire/store';
import { ShiftableClock } from '@brandwire/upstream';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { KeyRateLimit } from '../common/auth/key-rate-limit';
import { ApiKeysService } from '../common/auth/api-keys.service';
import { BrandAccessService } from '../common/auth/brand-access.service';
import { EnvelopeFilter } from '../common/errors/envelope.filter';
import { allowedMethodsOf } from '../common/http/allowed-methods';
import { BodyParsingGuard } from '../common/http/body-parsing';
import { answerClientErrorsInEnvelope } from '../common/http/client-errors';
import { ConnectionDrain } from '../common/http/connection-drain';
import { limitPipelining } from '../common/http/pipelining-limit';
import { validationPipe } from '../common/http/validation';
import type { Config } from '../config/config';
import { checkDataDir } from '../config/data-dir';
import { mountOpenApi } from '../docs/openapi';
import { brandsWithoutAdmin } from '../seed/admin-keys';
import { applySeedFile } from '../seed/apply-seed';
import { type DemoKeys, claimDemoKeys, newDemoKeys, saveDemoKeys } from '../seed/demo-brand';
import { cachedRoomPages } from '../retrieval/cached-room-pages.middleware';
import { RoomPageCache } from '../retrieval/room-page-cache';
import { SandboxSettingsSync } from '../settings/sandbox-settings-sync';
import { AppModule } from './app.module';
import { hostAndPort, listen } from './listen';
import { PinoNestLogger, createLogger } from './pino-logger';
import { RequestGate } from './request-gate';
import type { Runtime } from './runtime';
import { linkUpstream } from './upstream-link';

export interface RunningService {
  url: string;
  runtime: Runtime;
  app: INestApplication;
  /** the demo keys, only on the first start without a seed */
  demoKeys: DemoKeys | undefined;
  close(): Promise<void>;
}

/** The service as it first answers on its URL. */
export interface ListeningService {
  url: string;
  runtime: Runtime;
  /** the demo keys, only on the first start without a seed; not stored yet */
  demoKeys: DemoKeys | undefined;
}

export interface StartOptions {
  /**
   * Called once the service listens, before the demo keys of a first start are stored: the person starting the
   * service sees them here or never (only their hashes are kept), so keys are never stored unseen, not even by a
   * start that fails or crashes before it shows them; the next start makes and shows new ones.
   */
  onListening?: (service: ListeningService) => void;
}

interface PreparedStore {
  store: Store;
  /** held while this start is to make the demo keys, until they are stored or the start fails */
  demoKeysLock: FirstStartLock | undefined;
}

async function prepareStore(config: Config, clock: ShiftableClock): Promise<PreparedStore> {
  if (config.databaseUrl === undefined) checkDataDir(config.dataDir);
  const store = await openStore({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    now: () => clock.now(),
    thread: config.sqliteThread,
    // without its storage thread the service can answer nothing: stop, so that a supervisor starts it again
    onFailure: (error) => {
      process.stderr.write(`brandwire: ${error.message}; stopping\n`);
      process.exit(1);
    },
  });
  let demoKeysLock: FirstStartLock | undefined;
  try {
    const logger = createLogger(config.logLevel);
    const quoted = (names: string[]): string => names.map((name) => `"${name}"`).join(', ');
    if (config.seedFile) {
      const { revokedKeys, definesBrands } = await applySeedFile(store, config.seedFile);
      if (revokedKeys.length > 0) logger.warn(`the seed ${config.seedFile} names revoked keys (${quoted(revokedKeys)}): they stay revoked; take them out of the seed`);
      if (!definesBrands && (await store.directory.listBrands()).length === 0) {
        logger.warn(`the seed ${config.seedFile} defines no brand, and none is stored: no channel can be used (the demo brand is made only without a seed)`);
      }
    }
    demoKeysLock = config.seedFile ? undefined : await claimDemoKeys(store, { dataDir: config.dataDir, databaseUrl: config.databaseUrl });
    const orphans = demoKeysLock ? [] : await brandsWithoutAdmin(store);
    if (orphans.length > 0) {
      logger.warn(`no Admin key reaches the brands ${quoted(orphans)}: no key can change their settings or approve pairings for them; give one in a seed file (BRANDWIRE_SEED)`);
    }
    return { store, demoKeysLock };
  } catch (error) {
    await demoKeysLock?.release();
    await store.close();
    throw error;
  }
}

/** Opens storage, links the messenger, and serves the API until closed. */
export async function startService(config: Config, options: StartOptions = {}): Promise<RunningService> {
  const clock = new ShiftableClock();
  const { store, demoKeysLock } = await prepareStore(config, clock);
  const demoWanted = demoKeysLock !== undefined;
  const untilKeysStored = demoWanted ? new RequestGate() : undefined;
  let upstream: Awaited<ReturnType<typeof linkUpstream>> | undefined;
  let app: NestExpressApplication | undefined;
  try {
    // the data folder is this service's alone with SQLite only (several instances share a PostgreSQL database)
    upstream = await linkUpstream(config, clock, store.dialect === 'sqlite' ? join(config.dataDir, 'sandbox') : undefined);
    const runtime: Runtime = {
      config,
      store,
      clock,
      messenger: upstream.messenger,
      serials: new SerialGenerator(() => clock.now(), Math.random),
      sandbox: upstream.sandbox,
    };
    app = await NestFactory.create<NestExpressApplication>(AppModule.forRuntime(runtime), {
      bodyParser: false,
      abortOnError: false,
      logger: new PinoNestLogger(createLogger(config.logLevel)),
    });
    const { url, drain } = await serve(app, config, untilKeysStored);
    if (upstream.sandbox) {
      const { control } = upstream.sandbox;
      const callbackUrl = `${config.publicUrl ?? url}/upstream`;
      await control.setPartner({ callbackUrl });
      for (const channel of await store.directory.listChannels()) {
        await control.setChannel(channel.senderKey, { type: channel.type, chatbotBuilder: channel.chatbotBuilder });
      }
      const settings = app.get(SandboxSettingsSync);
      upstream.onSandboxRestart(async () => {
        await control.setPartner({ callbackUrl });
        await settings.syncAll();
      });
    }
    const demoKeys = demoWanted ? newDemoKeys() : undefined;
    options.onListening?.({ url, runtime, demoKeys });
    if (demoKeys) await saveDemoKeys(store, demoKeys);
    untilKeysStored?.open();
    await demoKeysLock?.release();
    const running = { app, upstream };
    return {
      url,
      runtime,
      app,
      demoKeys,
      close: async () => {
        await drain.drain();
        await running.app.close();
        await running.upstream.close();
        await store.close();
      },
    };
  } catch (error) {
    // a service that did not start leaves nothing open behind: its data folder is free for the next attempt
    untilKeysStored?.fail();
    await demoKeysLock?.release();
    await app?.close().catch(() => undefined);
    await upstream?.close().catch(() => undefined);
    await store.close();
    throw error;
  }
}

/** Sets up the HTTP layer of the app and listens; the URL it answers on, and how its connections end at a stop. */
async function serve(app: NestExpressApplication, config: Config, gate: RequestGate | undefined): Promise<{ url: string; drain: ConnectionDrain }> {
  app.disable('x-powered-by');
  app.set('etag', false);
  if (config.trustProxy !== undefined) app.set('trust proxy', config.trustProxy);
  if (gate) app.use(gate.middleware);
  app.use(cachedRoomPages(app.get(RoomPageCache), app.get(ApiKeysService), app.get(BrandAccessService), app.get(KeyRateLimit)));
  // after the global guards of AppModule (AuthGuard first): a body is read only for a request let in
  app.useGlobalGuards(new BodyParsingGuard(config.jsonBodyLimit));
  app.useGlobalFilters(new EnvelopeFilter(allowedMethodsOf(app.getHttpAdapter().getInstance())));
  app.useGlobalPipes(validationPipe());
  mountOpenApi(app);
  answerClientErrorsInEnvelope(app.getHttpServer());
  const drain = new ConnectionDrain(app.getHttpServer());
  limitPipelining(app.getHttpServer());
  // not Nest's listen: it also logs a failure, as a JSON line, before the service reports it in one of its own
  await app.init();
  const address = await listen(app.getHttpServer(), config.port, config.host);
  return { url: `http://${hostAndPort(config.host, address.port)}`, drain };
}
