import type { SandboxControlClient } from '@brandwire/upstream';

/** The sandbox messenger the service talks to, when the upstream is the sandbox. */
export interface SandboxLink {
  control: SandboxControlClient;
  /** true when the sandbox runs in this process and shares the service's clock object */
  sharesClock: boolean;
}
