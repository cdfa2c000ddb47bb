import { existsSync } from 'node:fs';
import type { KnowledgeGraph } from './knowledge-graph';
import type { KnowledgeConversation } from './types';
import { buildInChild } from './test-support/build-in-child';
import { CDN } from './test-support/conversations';
import { runThenCrash } from './test-support/crash-kuzu';
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
