import { type Session, type StoredConfig, readConfig, writeConfig } from './config-store';
import { DEFAULT_KNOWLEDGE_QUERY_PORT, knowledgeGraphPath } from './data-dir';

/** The knowledge settings in use: enabled by `knowledge install`, the gateway's query port, the graph file. */
export interface KnowledgeSettings {
  enabled: boolean;
  queryPort: number;
  graphPath: string;
}

export function knowledgeSettings(config: StoredConfig): KnowledgeSettings {
  return {
    enabled: config.knowledge?.enabled === true,
    queryPort: queryPortOf(config),
    graphPath: knowledgeGraphPath(),
  };
}

export function queryPortOf(config: StoredConfig): number {
  return config.knowledge?.queryPort ?? DEFAULT_KNOWLEDGE_QUERY_PORT;
}

/** Stores `knowledge.enabled: true`, re-reading the file so nothing written since the session was read is lost. */
export function enableKnowledge(session: Session): void {
  const config = readConfig(session.configPath);
  if (config.knowledge?.enabled === true) return;
  writeConfig(session.configPath, { ...config, knowledge: { ...config.knowledge, enabled: true } });
}
