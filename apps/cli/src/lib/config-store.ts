import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError } from './cli-error';
import { EXIT } from './exit-codes';

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:8080';
export const CONFIG_FILE = 'config.json';
/** Where the gateway takes the team chat's commands unless told: beside the query API (8790) and `knowledge view` (8791). */
export const DEFAULT_COMMANDS_PORT = 8792;

/** Settings the gateway reads later: its team-chat sink, CRM and AI provider. */
export interface GatewaySettings {
  sink?: { type?: string; url?: string; token?: string };
  crm?: { url?: string; token?: string };
  /** the team chat's commands (/cs-who, /cs-close, /cs-memo), taken on loopback at `port` (default DEFAULT_COMMANDS_PORT) */
  commands?: { port?: number; secret?: string };
  ai?: {
    provider?: string;
    model?: string;
    apiKey?: string;
    /** base URL of the provider's API; for a local or compatible server */
    url?: string;
    /** what the gateway does with a customer message: nothing (default), post a suggested reply to the team chat, or send it */
    reply?: string;
    /** the brand's own instructions for the replies (tone, what to say, what never to promise) */
    instructions?: string;
  };
}

/** What `setup` and `login` store (file mode 0600). */
export interface StoredConfig {
  endpoint?: string;
  token?: string;
  /** the default channel (brand key) when --channel is left out */
  channel?: string;
  /** what the service said of the key when it was stored */
  keyName?: string;
  scope?: string;
  gateway?: GatewaySettings;
  /** the knowledge graph: `install` enables it; the gateway serves its query API on `queryPort` (default 8790) */
  knowledge?: { enabled?: boolean; queryPort?: number };
}

type Env = Record<string, string | undefined>;

/** BRANDWIRE_CONFIG_DIR, else the platform's config folder: XDG on Linux, Application Support on macOS, APPDATA on Windows. */
export function configDir(env: Env = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (env['BRANDWIRE_CONFIG_DIR']) return env['BRANDWIRE_CONFIG_DIR'];
  if (platform === 'win32') return join(env['APPDATA'] || join(home, 'AppData', 'Roaming'), 'brandwire');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'brandwire');
  return join(env['XDG_CONFIG_HOME'] || join(home, '.config'), 'brandwire');
}

export function configPath(env: Env = process.env): string {
  return join(configDir(env), CONFIG_FILE);
}

/** The stored config; empty when there is none yet. A file that is not a JSON object is an error naming the file. */
export function readConfig(path: string): StoredConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError('CONFIG', `cannot read ${path}: ${(error as Error).message}`, EXIT.error, { config: 'unreadable' });
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not a JSON object');
    return parsed as StoredConfig;
  } catch (error) {
    throw new CliError('CONFIG', `${path} is not a valid config file (${(error as Error).message}): run \`brandwire setup\` again or delete it`, EXIT.error, { config: 'damaged' });
  }
}

/** A folder that existed before with wider modes gets 0700 too; a folder of someone else's is left as it is. */
function tightenFolder(folder: string): void {
  try {
    chmodSync(folder, 0o700);
  } catch {
    // not ours to change: the file itself is 0600 all the same
  }
}

/** Writes the config readable by its owner only (0600, folder 0700), atomically by rename. */
export function writeConfig(path: string, config: StoredConfig): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  tightenFolder(dirname(path));
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, path);
}

/** Where the endpoint, key and channel in use come from: the environment overrides the stored config. */
export interface Session {
  endpoint: string;
  endpointSource: 'env' | 'config' | 'default';
  token: string | undefined;
  tokenSource: 'env' | 'config' | 'none';
  channel: string | undefined;
  configPath: string;
  config: StoredConfig;
  /** why the config file could not be used; only for the commands that go on without it (env, setup) */
  configError?: string;
}

/**
 * Which config problems a command goes on without, counting the file as empty (`configError` says why): `damaged`
 * content only (setup, which then writes a new file), or also a file it cannot read (env, which writes nothing).
 */
export type ConfigTolerance = 'damaged' | 'any';

export function loadSession(env: Env = process.env, options: { tolerate?: ConfigTolerance } = {}): Session {
  const path = configPath(env);
  let config: StoredConfig = {};
  let configError: string | undefined;
  try {
    config = readConfig(path);
  } catch (error) {
    const tolerated = error instanceof CliError && (options.tolerate === 'any' || (options.tolerate === 'damaged' && error.details['config'] === 'damaged'));
    if (!tolerated) throw error;
    configError = error.message;
  }
  const envEndpoint = env['BRANDWIRE_ENDPOINT'];
  const envToken = env['BRANDWIRE_TOKEN'];
  return {
    endpoint: envEndpoint || config.endpoint || DEFAULT_ENDPOINT,
    endpointSource: envEndpoint ? 'env' : config.endpoint ? 'config' : 'default',
    token: envToken || config.token,
    tokenSource: envToken ? 'env' : config.token ? 'config' : 'none',
    // the stored default channel is one the stored key sees; another key from the environment may see none of it
    channel: envToken && envToken !== config.token ? undefined : config.channel,
    configPath: path,
    config,
    ...(configError === undefined ? {} : { configError }),
  };
}
