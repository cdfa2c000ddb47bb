import { existsSync } from 'node:fs';
import { KnowledgeGraph } from './knowledge-graph';
import type { KnowledgeConversation } from './types';
import { buildInChild } from './test-support/build-in-child';
import { CDN } from './test-support/conversations';
import { crashInCheckpoint, runThenCrash } from './test-support/crash-kuzu';
import { interruptedBuildConversations } from './test-support/many-conversations';
import { tempGraphPath, type TempDir, withGraph } from './test-support/temp-graph';

const COUNT = 60;

/** Every table has one full-text index, it answers, and a full build leaves the whole graph searchable. */
async function expectSearchable(graph: KnowledgeGraph, conversations = COUNT): Promise<void> {
  const { ftsIndexes } = await graph.status();
  expect(ftsIndexes).toEqual([expect.stringMatching(/^inquiry_text(_\d+)?$/), expect.stringMatching(/^response_text(_\d+)?$/)]);
  const hits = await graph.search('refund', { limit: 100 });
  expect(hits.every((h) => h.match === 'full-text')).toBe(true);
  expect(new Set(hits.map((h) => h.kind))).toEqual(new Set(['inquiry', 'response']));
  expect(hits.filter((h) => h.kind === 'inquiry')).toHaveLength(Math.ceil(conversations / 5));
}

describe('a build killed mid-way leaves a graph that the next install or build repairs (real Kuzu, real processes)', () => {
  let temp: TempDir;
  beforeEach(async () => {
    temp = tempGraphPath();
    await withGraph(temp.path, {}, (graph) => graph.install());
  });
  afterEach(() => temp.remove());

  it('killed in its copy, with the indexes dropped for it: install, then build and search work', async () => {
    const build = buildInChild(temp.path, COUNT, 'pause-in-copy');
    await build.reached('paused');
    await build.kill();

    await withGraph(temp.path, {}, async (graph) => {
      const installed = await graph.install();
      expect(installed.createdTables).toEqual([]);
      expect(installed.createdIndexes).toHaveLength(2);
      await graph.build(interruptedBuildConversations(COUNT), { attachmentHost: CDN });
      await expectSearchable(graph);
    });
    await withGraph(temp.path, {}, async (graph) => {
      expect(await graph.install()).toEqual({ createdTables: [], createdIndexes: [] });
      await expectSearchable(graph);
    });
  });

  it('killed in its copy, with the indexes dropped for it: the next build alone recreates them', async () => {
    const build = buildInChild(temp.path, COUNT, 'pause-in-copy');
    await build.reached('paused');
    await build.kill();

    await withGraph(temp.path, {}, async (graph) => {
      const report = await graph.build(interruptedBuildConversations(COUNT), { attachmentHost: CDN });
      expect(report.conversations).toBe(COUNT);
      await expectSearchable(graph);
    });
  });

  it('killed while it creates the indexes again: the next build finishes them', async () => {
    const build = buildInChild(temp.path, COUNT);
    await build.reached('indexing');
    await new Promise((resume) => setTimeout(resume, 30));
    await build.kill();

    await withGraph(temp.path, {}, async (graph) => {
      await graph.build(interruptedBuildConversations(COUNT), { attachmentHost: CDN });
      await expectSearchable(graph);
    });
  });

  it('stopped by its conversations failing mid-way (as Ctrl-C stops it): keeps the batches copied, makes the indexes whole, rejects', async () => {
    async function* cutShort(): AsyncIterable<KnowledgeConversation> {
      yield* interruptedBuildConversations(COUNT).slice(0, 40);
      throw new Error('the build was interrupted');
    }
    await withGraph(temp.path, {}, async (graph) => {
      await expect(graph.build(cutShort(), { attachmentHost: CDN, batchMessages: 100 })).rejects.toThrow('the build was interrupted');
      const { nodes, ftsIndexes } = await graph.status();
      expect(nodes['Conversation']).toBe(25);
      expect(ftsIndexes).toEqual(['inquiry_text', 'response_text']);
      await graph.build(interruptedBuildConversations(COUNT), { attachmentHost: CDN });
      await expectSearchable(graph);
    });
  });

  it('repairs what Kuzu leaves when a process dies after dropping the indexes, before they reach the data file', async () => {
    await withGraph(temp.path, {}, (graph) => graph.build(interruptedBuildConversations(COUNT), { attachmentHost: CDN }));
    runThenCrash(temp.path, ["CALL DROP_FTS_INDEX('Inquiry', 'inquiry_text')", "CALL DROP_FTS_INDEX('Response', 'response_text')"]);
    expect(existsSync(`${temp.path}.wal`)).toBe(true);

    await withGraph(temp.path, {}, async (graph) => {
      expect((await graph.install()).createdIndexes).toHaveLength(2);
      await expectSearchable(graph);
    });
    await withGraph(temp.path, {}, async (graph) => {
      await graph.build(interruptedBuildConversations(COUNT + 5), { attachmentHost: CDN });
      await expectSearchable(graph, COUNT + 5);
    });
  });
});

describe('a write killed before it finished: readers say the graph needs repair, and install repairs it (real Kuzu, real processes)', () => {
  let temp: TempDir;
  beforeEach(async () => {
    temp = tempGraphPath();
    await withGraph(temp.path, {}, async (graph) => {
      await graph.install();
      await graph.build(interruptedBuildConversations(COUNT), { attachmentHost: CDN });
    });
  });
  afterEach(() => temp.remove());

  it('killed in a checkpoint (shadow pages a reader cannot replay): GRAPH_NEEDS_REPAIR at a read-only open, and install repairs it', async () => {
    await crashInCheckpoint(temp.path, ["MATCH (c:Conversation) SET c.lines = c.lines + 1"]);
    expect(existsSync(`${temp.path}.shadow`)).toBe(true);

    const error: unknown = await KnowledgeGraph.open(temp.path, { readOnly: true, bufferPoolMb: 64 }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'KnowledgeGraphError',
      code: 'GRAPH_NEEDS_REPAIR',
      message: `The knowledge graph at ${temp.path} needs repair: a build or another write stopped before it finished (its process was killed or crashed), and a reader cannot complete it. Run install (\`brandwire knowledge install\`, with the gateway stopped) to repair it; what the graph held is kept.`,
    });
    // the refused reader gave up its holder file
    await withGraph(temp.path, {}, async (graph) => {
      expect(await graph.install()).toEqual({ createdTables: [], createdIndexes: [] });
    });
    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      // the write was committed (once per attempt crashInCheckpoint needed) before the checkpoint it died in
      expect((await graph.query('MATCH (c:Conversation) RETURN min(c.lines) = max(c.lines) AND min(c.lines) > 4, count(c)')).rows).toEqual([[true, COUNT]]);
      await expectSearchable(graph);
    });
  });

  it('killed after dropping the full-text indexes for its load: search says GRAPH_NEEDS_REPAIR, and install repairs it', async () => {
    runThenCrash(temp.path, ["CALL DROP_FTS_INDEX('Inquiry', 'inquiry_text')", 'CHECKPOINT']);

    await withGraph(temp.path, { readOnly: true }, async (graph) => {
      await expect(graph.search('refund')).rejects.toMatchObject({
        name: 'KnowledgeGraphError',
        code: 'GRAPH_NEEDS_REPAIR',
        message:
          'The knowledge graph needs repair: its full-text index over Inquiry.text is missing (dropped, or a build or another write stopped before it finished). Run install (`brandwire knowledge install`, with the gateway stopped) to repair it; what the graph held is kept.',
      });
    });
    await withGraph(temp.path, {}, async (graph) => expect((await graph.install()).createdIndexes).toEqual(['inquiry_text']));
    await withGraph(temp.path, { readOnly: true }, (graph) => expectSearchable(graph));
  });
});
