import { homedir } from 'node:os';
import { join } from 'node:path';
import { configDir } from './config-store';

type Env = Record<string, string | undefined>;

/** Port of the gateway's loopback knowledge query API unless the setting `knowledge.queryPort` says otherwise. */
export const DEFAULT_KNOWLEDGE_QUERY_PORT = 8790;

/**
 * Where the tool keeps its data (the knowledge graph, the gateway's state and log): the config folder when
 * BRANDWIRE_CONFIG_DIR moves it (one folder for everything), else XDG_DATA_HOME on Linux; on macOS and Windows
 * the config folder already is a data folder.
 */
export function dataDir(env: Env = process.env, platform: NodeJS.Platform = process.platform, home: string = homedir()): string {
  if (env['BRANDWIRE_CONFIG_DIR'] || platform !== 'linux') return configDir(env, platform, home);
  return join(env['XDG_DATA_HOME'] || join(home, '.local', 'share'), 'brandwire');
}

/** The knowledge graph's Kuzu database file. */
export function knowledgeGraphPath(env: Env = process.env): string {
  return join(dataDir(env), 'knowledge', 'graph.kuzu');
}

/** The running gateway's state file (pid, port, start time). */
export function gatewayStatePath(env: Env = process.env): string {
  return join(dataDir(env), 'gateway', 'gateway.json');
}
