import { BrandwireCommand } from '../../base-command';
import { knowledgeGraphPath } from '../../lib/data-dir';
import { closing, openGraph } from '../../lib/knowledge-access';
import { knowledgeFailure } from '../../lib/knowledge-errors';
import { enableKnowledge } from '../../lib/knowledge-settings';
import { fields } from '../../lib/output';

export interface InstallResult {
  ok: true;
  kuzuVersion: string;
  graphPath: string;
  /** tables and full-text indexes created now (empty when it was installed already) */
  createdTables: string[];
  createdIndexes: string[];
  enabled: true;
  configPath: string;
}

export default class KnowledgeInstall extends BrandwireCommand {
  static override summary = 'Check the graph database library, enable the knowledge graph and create its schema (no AI needed)';
  static override description =
    'Loads the embedded graph database (Kuzu), creates the graph file with its tables and full-text indexes where missing, and stores knowledge.enabled in the config file. Safe to run again. Needs the gateway stopped.';
  static override examples = ['<%= config.bin %> knowledge install', '<%= config.bin %> knowledge install --json'];

  async run(): Promise<InstallResult> {
    await this.parse(KnowledgeInstall);
    const session = this.session();
    const { kuzuVersion } = await import('@brandwire/knowledge');
    let version: string;
    try {
      version = kuzuVersion();
    } catch (error) {
      throw knowledgeFailure(error);
    }
    const report = await closing(await openGraph('install', { create: true }), (graph) => graph.install());
    enableKnowledge(session);
    const result: InstallResult = {
      ok: true,
      kuzuVersion: version,
      graphPath: knowledgeGraphPath(),
      createdTables: report.createdTables,
      createdIndexes: report.createdIndexes,
      enabled: true,
      configPath: session.configPath,
    };
    await this.show(() => {
      const created = [...report.createdTables, ...report.createdIndexes];
      return [
        created.length > 0 ? 'Installed the knowledge graph.' : 'The knowledge graph was installed already; nothing to create.',
        fields([
          ['graph', result.graphPath],
          ['kuzu', result.kuzuVersion],
          ['created', created.join(', ') || 'nothing'],
          ['enabled in', result.configPath],
        ]),
        'Next: `brandwire knowledge build` loads the past consultations.',
      ].join('\n');
    });
    return result;
  }
}
