import { BrandwireCommand } from '../../base-command';
import { CliError } from '../../lib/cli-error';
import { type KnowledgeReader, closing, openReader } from '../../lib/knowledge-access';
import { type KnowledgeStatusView, presentStatus } from '../../lib/knowledge-present';
import { knowledgeSettings } from '../../lib/knowledge-settings';

export type StatusResult = { ok: true } & KnowledgeStatusView;

export default class KnowledgeStatus extends BrandwireCommand {
  static override summary = 'Show whether the knowledge graph is installed, its settings, and its node and relation counts';
  static override description = 'Reads through the running gateway when it answers on its query port, else opens the graph read-only.';
  static override examples = ['<%= config.bin %> knowledge status', '<%= config.bin %> knowledge status --json'];

  async run(): Promise<StatusResult> {
    await this.parse(KnowledgeStatus);
    const session = this.session();
    const settings = knowledgeSettings(session.config);
    const base = { ok: true as const, enabled: settings.enabled, queryPort: settings.queryPort, graphPath: settings.graphPath };
    let result: StatusResult = { ...base, installed: false, via: 'none', kuzuVersion: null, nodes: {}, relations: {}, ftsIndexes: [] };
    const reader = await this.reader();
    if (reader) {
      const graph = await closing(reader.backend, (backend) => backend.status());
      // the graph read: through a gateway of another config folder, that folder's graph
      const graphPath = graph.path || base.graphPath;
      const unanswered = reader.unansweredGatewayPid === undefined ? {} : { unansweredGatewayPid: reader.unansweredGatewayPid };
      const tokenless = reader.tokenlessGatewayPid === undefined ? {} : { tokenlessGatewayPid: reader.tokenlessGatewayPid };
      result = { ...base, graphPath, installed: graph.installed, via: reader.via, ...unanswered, ...tokenless, kuzuVersion: graph.kuzuVersion, nodes: graph.nodes, relations: graph.relations, ftsIndexes: graph.ftsIndexes };
    }
    await this.show(() => presentStatus(result));
    return result;
  }

  /** The gateway or the graph; none when there is no graph file yet (not installed). */
  private async reader(): Promise<KnowledgeReader | undefined> {
    try {
      return await openReader('status', this.session());
    } catch (error) {
      if (error instanceof CliError && error.code === 'GRAPH_MISSING') return undefined;
      throw error;
    }
  }
}
