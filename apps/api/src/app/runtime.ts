import type { SerialGenerator } from '@brandwire/domain';
import type { Store } from '@brandwire/store';
import type { MessengerPort, ShiftableClock } from '@brandwire/upstream';
import type { Config } from '../config/config';
import type { SandboxLink } from '../sandbox/sandbox-link';

/** The ports the app is built on, assembled once at start-up. */
export interface Runtime {
  config: Config;
  store: Store;
  clock: ShiftableClock;
  messenger: MessengerPort;
  serials: SerialGenerator;
  /** present while the upstream is the sandbox messenger */
  sandbox: SandboxLink | undefined;
}
