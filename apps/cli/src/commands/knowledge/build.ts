import type { BuildReport } from '@brandwire/knowledge';
import { string } from '@oclif/core/flags';
import { BrandwireCommand } from '../../base-command';
import { connect } from '../../lib/connect';
import { knowledgeGraphPath } from '../../lib/data-dir';
import { channelFlag } from '../../lib/flags';
import { closing, openGraph } from '../../lib/knowledge-access';
import { checkAttachmentHost } from '../../lib/knowledge-build';
import { BuildInterruption } from '../../lib/knowledge-interrupt';
import { presentBuild } from '../../lib/knowledge-present';
import { buildProgressDisplay } from '../../lib/knowledge-progress';

export type BuildResult = { ok: true; graphPath: string; channel: string | null; attachmentHost: string } & BuildReport;

export default class KnowledgeBuild extends BrandwireCommand {
  static override summary = 'Bulk-load the past consultations from the service into the knowledge graph';
  static override description = [
    'Reads every conversation of the channel (or of every channel the key may read) from the retrieval API and copies them into the graph in bulk. A second run adds only what is new: new conversations and the new lines of grown ones.',
    'Attachment lines become Attachment nodes only when their URL is https on exactly the attachment host, which the service tells (`attachmentHost` of GET /api/agent/me); --attachment-host overrides it. A customer can type a line that looks like an attachment, so the tool never guesses the host from the messages.',
    'Needs `brandwire knowledge install` first and the gateway stopped (`brandwire gateway stop`). Shows a progress bar on a terminal.',
    'Ctrl-C (or SIGTERM) stops it after its current step, keeping what it copied, and it exits 1 (INTERRUPTED); a second Ctrl-C stops it at once. Either way, or after a crash, the next build or install repairs the graph.',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> knowledge build',
    '<%= config.bin %> knowledge build --channel acme-kakao --json',
    '<%= config.bin %> knowledge build --attachment-host talk-cdn.example.com',
  ];
  static override flags = {
    channel: channelFlag('brand key of the channel to load (old name: --brand); every channel the key may read when left out'),
    'attachment-host': string({ description: 'host of customer attachment URLs (default: the one the service tells)', helpValue: '<host>' }),
  };

  async run(): Promise<BuildResult> {
    const { flags } = await this.parse(KnowledgeBuild);
    const session = this.session();
    const client = await connect(session);
    const attachmentHost = checkAttachmentHost(flags['attachment-host'] ?? (await client.me()).attachmentHost);
    const { streamConversations } = await import('@brandwire/client');
    const interruption = BuildInterruption.watch((line) => process.stderr.write(`\n${line}\n`));
    let report: BuildReport;
    try {
      report = await closing(await openGraph('build'), async (graph) => {
        const progress = await buildProgressDisplay(!this.jsonEnabled());
        try {
          const conversations = streamConversations(client, { channel: flags.channel, onPage: (page) => progress.page(page) });
          return await graph.build(interruption.guard(conversations), { attachmentHost, onProgress: (p) => progress.build(p) });
        } finally {
          progress.stop();
        }
      });
    } catch (error) {
      throw interruption.signal === undefined ? error : interruption.failure();
    } finally {
      interruption.dispose();
    }
    if (interruption.signal !== undefined) throw interruption.failure();
    const result: BuildResult = { ok: true, graphPath: knowledgeGraphPath(), channel: flags.channel ?? null, attachmentHost, ...report };
    await this.show(() => presentBuild(report));
    return result;
  }
}
