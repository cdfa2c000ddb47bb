import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { BrandwireClient, isApiError } from '@brandwire/client';

/** How often the config file is read while the service refuses the key: a `brandwire login` is taken up within this. */
const CONFIG_READ_EVERY_MS = 2_000;

/**
 * The key the gateway uses with the service. When the service refuses it (401: revoked, or unknown to it), that is
 * logged once with what to do, and, when the key came from the CLI's config file, the file is read again until
 * `brandwire login` (or `setup`) stores another key there: the gateway goes on with it, without a restart.
 */
export class ServiceKey {
  private current: string;
  private currentClient: BrandwireClient;
  private readonly refusedKeys = new Set<string>();
  /** a key was refused, and no key has been accepted since */
  private refusing = false;

  constructor(
    readonly endpoint: string,
    private readonly initial: string,
    /** the CLI's config file the key was read from; undefined when it came from elsewhere (BRANDWIRE_TOKEN) */
    private readonly configFile: string | undefined,
    private readonly report: (line: string) => void,
  ) {
    this.current = initial;
    this.currentClient = this.clientWith(initial);
  }

  get token(): string {
    return this.current;
  }

  /** A client with the key in use. */
  client(): BrandwireClient {
    return this.currentClient;
  }

  /** Whether `error` is the service refusing `token` (401); the first refusal of a key is logged. */
  refuses(error: unknown, token: string): boolean {
    if (!isApiError(error) || error.status !== 401) return false;
    this.refusing = true;
    if (!this.refusedKeys.has(token)) {
      this.refusedKeys.add(token);
      this.report(`error: the service at ${this.endpoint} refused ${this.nameOf(token)} (${error.code}: it was revoked, or the service does not know it); nothing is relayed until it has a valid one. ${this.remedy()}`);
    }
    return true;
  }

  /** The service took `token`: after a refusal, that is logged once. */
  accepted(token: string): void {
    if (!this.refusing || token !== this.current) return;
    this.refusing = false;
    this.refusedKeys.delete(token);
    this.report(`the service accepts ${this.nameOf(token)}: relaying goes on`);
  }

  /**
   * The pause before trying again after the service refused `token`: over once another key is in use (the config
   * file holds one not refused yet, read here or by another try's pause), after `longestMs`, or when `stop` aborts.
   */
  async retryAfterRefusal(token: string, longestMs: number, stop: AbortSignal): Promise<void> {
    const until = Date.now() + longestMs;
    while (!stop.aborted && this.current === token && !this.readConfigFile()) {
      const left = until - Date.now();
      if (left <= 0) return;
      await sleep(Math.min(CONFIG_READ_EVERY_MS, left), undefined, { signal: stop }).catch(() => undefined);
    }
  }

  /** Takes up the config file's key when it is another one, not refused yet; whether it did. */
  private readConfigFile(): boolean {
    if (this.configFile === undefined) return false;
    let token: unknown;
    try {
      token = (JSON.parse(readFileSync(this.configFile, 'utf8')) as { token?: unknown }).token;
    } catch {
      // missing, or being written by something other than the CLI (which renames a whole file): read it at the next try
      return false;
    }
    if (typeof token !== 'string' || token === '' || token === this.current || this.refusedKeys.has(token)) return false;
    this.current = token;
    this.currentClient = this.clientWith(token);
    return true;
  }

  private nameOf(token: string): string {
    return token === this.initial ? "the gateway's key" : `the new key in ${this.configFile ?? '?'}`;
  }

  private remedy(): string {
    if (this.configFile === undefined) return 'The key came from BRANDWIRE_TOKEN: start the gateway again with a valid key (`brandwire gateway restart`)';
    return `Run \`brandwire login\` (or \`brandwire setup <key>\`): the gateway reads the new key from ${this.configFile} by itself, without a restart`;
  }

  private clientWith(token: string): BrandwireClient {
    return new BrandwireClient({ endpoint: this.endpoint, token, userAgent: 'brandwire-gateway' });
  }
}
