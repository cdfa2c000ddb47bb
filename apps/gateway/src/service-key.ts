import { setTimeout as sleep } from 'node:timers/promises';
import { BrandwireClient, type MeResponse, isApiError, shownEndpoint } from '@brandwire/client';
import { type Scope, isScope, scopeAllows } from '@brandwire/domain';
import { changedAtOf, normalisedEndpoint, readStoredKey } from './stored-key';

/** How often the config file is read while the service refuses the key: a `brandwire login` is taken up within this. */
const CONFIG_READ_EVERY_MS = 2_000;
/** How long the service is given to tell about a key in the config file before it is taken (GET /api/agent/me). */
const KEY_CHECK_MS = 5_000;

/** A key with a client that sends it: whatever the client is refused, that key was. */
export interface KeyInUse {
  token: string;
  client: BrandwireClient;
}

/** The scope the gateway's relays need, and what for (as people are told). */
export interface NeededScope {
  scope: Scope;
  why: string;
}

export interface ServiceKeySettings {
  endpoint: string;
  token: string;
  /** the CLI's config file the key was read from; undefined when it came from elsewhere (BRANDWIRE_TOKEN) */
  configFile: string | undefined;
  needs: NeededScope;
  /** the gateway's stop: ends at once every call the key's clients are making */
  stop: AbortSignal;
}

/**
 * The key the gateway uses with the service. When the service refuses it (401: revoked, or unknown to it), that is
 * logged once with what to do, and, when the key came from the CLI's config file, the file is read again until
 * `brandwire login` (or `setup`) stores another key there: the gateway goes on with it, without a restart, once the
 * service says it knows it and it has the scope the relays need. A key stored for another endpoint is never sent to
 * the gateway's: following it takes a restart.
 */
export class ServiceKey {
  private current: KeyInUse;
  /**
   * Keys refused, or short of the scope needed, each with when the config file was last written then: not taken from
   * the file again until it is written again (the service may know the key by then).
   */
  private readonly passedOver = new Map<string, number | undefined>();
  private readonly told = new Set<string>();
  /** the key in use was refused, and has not been accepted since */
  private refusing = false;
  private reading: Promise<boolean> | undefined;

  constructor(
    private readonly settings: ServiceKeySettings,
    private readonly report: (line: string) => void,
  ) {
    this.current = { token: settings.token, client: this.clientWith(settings.token) };
  }

  /** The key in use, with its client. */
  inUse(): KeyInUse {
    return this.current;
  }

  /** Whether `error` is the service refusing `token` (401); the first refusal of a key is logged. */
  refuses(error: unknown, token: string): boolean {
    if (!isApiError(error) || error.status !== 401) return false;
    // a refusal of a key no longer in use (a relay still reading with it) says nothing of the key in use
    if (token === this.current.token) this.refusing = true;
    if (!this.passedOver.has(token)) {
      this.report(`error: the service at ${shownEndpoint(this.settings.endpoint)} refused ${this.nameOf(token)} (${error.code}: it was revoked, or the service does not know it); nothing is relayed until it has a valid one. ${this.remedy()}`);
    }
    this.passedOver.set(token, this.configChangedAt());
    return true;
  }

  /** The service took `token`: after a refusal of the key in use, that is logged once. */
  accepted(token: string): void {
    if (!this.refusing || token !== this.current.token) return;
    this.refusing = false;
    this.passedOver.delete(token);
    this.report(`the service accepts ${this.nameOf(token)}: relaying goes on`);
  }

  /**
   * The pause before trying again after the service refused `token`: over once another key is in use (the config
   * file holds one to take, read here or by another try's pause), after `longestMs`, or when `stop` aborts.
   */
  async retryAfterRefusal(token: string, longestMs: number, stop: AbortSignal): Promise<void> {
    const until = Date.now() + longestMs;
    while (!stop.aborted && this.current.token === token && !(await this.storedKeyTaken())) {
      const left = until - Date.now();
      if (left <= 0) return;
      await sleep(Math.min(CONFIG_READ_EVERY_MS, left), undefined, { signal: stop }).catch(() => undefined);
    }
  }

  /** Takes up the config file's key when it is one to take; whether it did. One read at a time, whoever asks. */
  private storedKeyTaken(): Promise<boolean> {
    this.reading ??= this.takeStoredKey().finally(() => (this.reading = undefined));
    return this.reading;
  }

  private async takeStoredKey(): Promise<boolean> {
    const { configFile } = this.settings;
    if (configFile === undefined) return false;
    const stored = readStoredKey(configFile);
    if (stored === undefined || stored.token === this.current.token) return false;
    if (this.passedOver.has(stored.token) && this.passedOver.get(stored.token) === stored.changedAt) return false;
    const endpoint = this.settings.endpoint;
    if (stored.endpoint !== undefined && normalisedEndpoint(stored.endpoint) !== normalisedEndpoint(endpoint)) {
      this.tellOnce(
        `error: the key in ${configFile} is for another endpoint (${shownEndpoint(stored.endpoint)}) than the gateway's (${shownEndpoint(endpoint)}): the gateway does not send it to its own, and relays nothing meanwhile. Run \`brandwire gateway restart\` for the gateway to follow the new endpoint`,
      );
      return false;
    }
    if (!(await this.serviceTakes(stored.token, stored.changedAt))) return false;
    this.current = { token: stored.token, client: this.clientWith(stored.token) };
    return true;
  }

  /** Whether the service knows `token` with the scope needed; a key refused or short of it is told once and passed over. */
  private async serviceTakes(token: string, changedAt: number): Promise<boolean> {
    let me: MeResponse;
    try {
      me = await this.clientWith(token, KEY_CHECK_MS).me();
    } catch (error) {
      // a service that does not answer now is asked again at the next read
      this.refuses(error, token);
      return false;
    }
    const { scope, why } = this.settings.needs;
    if (!isScope(me.scope) || scopeAllows(me.scope, scope)) return true;
    this.passedOver.set(token, changedAt);
    this.tellOnce(
      `error: the new key in ${this.settings.configFile ?? '?'} (${JSON.stringify(me.name)}) has the scope ${me.scope}, but the gateway needs ${scope} to ${why}: it does not take it, and relays nothing until it has a valid key. Run \`brandwire login\` (or \`brandwire setup <key>\`) with a ${scope} key`,
    );
    return false;
  }

  private tellOnce(line: string): void {
    if (this.told.has(line)) return;
    this.told.add(line);
    this.report(line);
  }

  private configChangedAt(): number | undefined {
    return this.settings.configFile === undefined ? undefined : changedAtOf(this.settings.configFile);
  }

  private nameOf(token: string): string {
    return token === this.settings.token ? "the gateway's key" : `the new key in ${this.settings.configFile ?? '?'}`;
  }

  private remedy(): string {
    if (this.settings.configFile === undefined) return 'The key came from BRANDWIRE_TOKEN: start the gateway again with a valid key (`brandwire gateway restart`)';
    return `Run \`brandwire login\` (or \`brandwire setup <key>\`): the gateway reads the new key from ${this.settings.configFile} by itself, without a restart`;
  }

  private clientWith(token: string, timeoutMs?: number): BrandwireClient {
    return new BrandwireClient({ endpoint: this.settings.endpoint, token, userAgent: 'brandwire-gateway', signal: this.settings.stop, ...(timeoutMs !== undefined && { timeoutMs }) });
  }
}
