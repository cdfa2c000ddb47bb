import { HttpMessengerClient, SandboxControlClient, type ShiftableClock, startSandboxMessenger } from '@brandwire/upstream';
import type { Config } from '../config/config';
import type { SandboxLink } from '../sandbox/sandbox-link';

export interface UpstreamLink {
  messenger: HttpMessengerClient;
  sandbox: SandboxLink | undefined;
  /**
   * What to do when a separately running sandbox has started again (a new boot id): it may have forgotten this
   * service (a crash keeps nothing), so the service registers its callback url and channels again.
   */
  onSandboxRestart(register: () => Promise<void>): void;
  close(): Promise<void>;
}

/** How often the clock of a separately running sandbox is read again (another instance may have moved it). */
const FOLLOW_SANDBOX_CLOCK_MS = 1_000;
/** Differences below this are the time of the read itself, not a move of the clock. */
const CLOCK_MOVE_MS = 1_000;

/**
 * Connects to the messenger: the sandbox messenger started in this process (talked to over real HTTP on
 * loopback, sharing the clock, keeping its state in `sandboxStateDir` when given) unless UPSTREAM_URL names another one. A separately running sandbox is
 * recognised by its control API and its clock is adopted, and followed: every instance sharing it keeps its time.
 */
export async function linkUpstream(config: Config, clock: ShiftableClock, sandboxStateDir: string | undefined): Promise<UpstreamLink> {
  const embedded = config.upstreamUrl
    ? undefined
    : await startSandboxMessenger({
        host: '127.0.0.1',
        port: 0,
        partnerKey: config.upstreamPartnerKey,
        clock,
        attachmentHost: config.attachmentHost,
        stateDir: sandboxStateDir,
        onNotice: (message) => process.stderr.write(`brandwire: ${message}\n`),
      });
  const baseUrl = embedded?.url ?? (config.upstreamUrl as string);
  const options = { baseUrl, partnerKey: config.upstreamPartnerKey };
  const messenger = new HttpMessengerClient(options);
  let sandbox: SandboxLink | undefined;
  let follow: NodeJS.Timeout | undefined;
  const onRestart: Array<() => Promise<void>> = [];
  const control = new SandboxControlClient(options);
  if (embedded) {
    sandbox = { control, sharesClock: true };
  } else {
    const info = await control.info().catch(() => undefined);
    if (info?.sandbox === true) {
      clock.setOffset(info.now - Date.now());
      sandbox = { control, sharesClock: false };
      let bootId = info.bootId;
      let registering = false;
      follow = setInterval(() => {
        control.info().then(
          (latest) => {
            const offset = latest.now - Date.now();
            if (Math.abs(offset - clock.offsetMs) > CLOCK_MOVE_MS) clock.setOffset(offset);
            if (latest.bootId === bootId || registering) return;
            // the boot id is taken only once registered: a registration that failed is made again a second later
            registering = true;
            Promise.all(onRestart.map((register) => register())).then(
              () => {
                bootId = latest.bootId;
                registering = false;
              },
              (error: unknown) => {
                process.stderr.write(`brandwire: registering with the sandbox messenger that started again failed (${error instanceof Error ? error.message : String(error)}); trying again\n`);
                registering = false;
              },
            );
          },
          () => undefined,
        );
      }, FOLLOW_SANDBOX_CLOCK_MS);
      follow.unref();
    } else {
      control.close();
    }
  }
  return {
    messenger,
    sandbox,
    onSandboxRestart: (register) => onRestart.push(register),
    close: async () => {
      clearInterval(follow);
      messenger.close();
      sandbox?.control.close();
      await embedded?.close();
    },
  };
}
