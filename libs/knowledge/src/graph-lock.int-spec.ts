import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KnowledgeGraph } from './knowledge-graph';
import { holdersDir } from './lock-holders';
import { holdInChild } from './test-support/child-holder';
import { tempGraphPath, type TempDir, withGraph } from './test-support/temp-graph';

describe('one writer at a time, and a refused process is told who holds the graph (real Kuzu, real processes)', () => {
  let temp: TempDir;
  beforeEach(async () => {
    temp = tempGraphPath();
    await withGraph(temp.path, {}, (graph) => graph.install());
  });
  afterEach(() => temp.remove());

  it('names the writer holding it when a second writer opens', async () => {
    const held = await holdInChild(temp.path, 'the gateway');
    try {
      const opening = KnowledgeGraph.open(temp.path, { holder: 'the CLI' });
      await expect(opening).rejects.toMatchObject({
        name: 'KnowledgeGraphError',
        code: 'GRAPH_LOCKED',
        message: `The knowledge graph at ${temp.path} is in use by the gateway (pid ${String(held.child.pid)}): only one process can open it for writing, and not while others read it. Stop that process or try again when it is done.`,
        holders: [expect.objectContaining({ pid: held.child.pid, description: 'the gateway', readOnly: false })],
      });
      await expect(KnowledgeGraph.open(temp.path, { readOnly: true })).rejects.toMatchObject({ code: 'GRAPH_LOCKED', message: expect.stringContaining('the gateway (pid') });
    } finally {
      await held.release();
    }
    expect(readdirSync(holdersDir(temp.path))).toEqual([]);
    await withGraph(temp.path, {}, async (graph) => expect(await graph.isInstalled()).toBe(true));
  });

  it('lets readers share, and names them to a writer', async () => {
    const held = await holdInChild(temp.path, 'the knowledge view', true);
    try {
      await withGraph(temp.path, { readOnly: true }, async (graph) => expect(await graph.isInstalled()).toBe(true));
      await expect(KnowledgeGraph.open(temp.path)).rejects.toMatchObject({
        code: 'GRAPH_LOCKED',
        message: expect.stringContaining(`in use by the knowledge view (pid ${String(held.child.pid)}, read-only)`),
      });
    } finally {
      await held.release();
    }
  });

  it('refuses a second writer inside the same process before Kuzu would allow it', async () => {
    await withGraph(temp.path, { holder: 'the first test handle' }, async () => {
      await expect(KnowledgeGraph.open(temp.path)).rejects.toMatchObject({ code: 'GRAPH_LOCKED', message: expect.stringContaining(`the first test handle (pid ${process.pid})`) });
    });
  });

  it('ignores the holder file of a process that is gone', async () => {
    mkdirSync(holdersDir(temp.path), { recursive: true });
    const stale = join(holdersDir(temp.path), '999999-1.json');
    writeFileSync(stale, JSON.stringify({ pid: 999_999_999, description: 'a crashed gateway', readOnly: false, since: '2026-01-01T00:00:00.000Z' }));
    const held = await holdInChild(temp.path, 'the gateway');
    try {
      const error: unknown = await KnowledgeGraph.open(temp.path).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'GRAPH_LOCKED', holders: [expect.objectContaining({ description: 'the gateway' })] });
    } finally {
      await held.release();
    }
  });

  it('removes the holder files of processes that are gone when it opens the graph', async () => {
    mkdirSync(holdersDir(temp.path), { recursive: true });
    writeFileSync(join(holdersDir(temp.path), '999999-1.json'), JSON.stringify({ pid: 999_999_999, description: 'a killed gateway', readOnly: true, since: '2026-01-01T00:00:00.000Z' }));
    await withGraph(temp.path, { readOnly: true }, () => {
      expect(readdirSync(holdersDir(temp.path))).toEqual([expect.stringMatching(new RegExp(`^${process.pid}-\\d+\\.json$`))]);
      return Promise.resolve();
    });
    expect(readdirSync(holdersDir(temp.path))).toEqual([]);
  });

  it('says clearly that a graph opened read-only does not exist yet', async () => {
    await expect(KnowledgeGraph.open(join(temp.dir, 'none.kuzu'), { readOnly: true })).rejects.toMatchObject({ code: 'GRAPH_MISSING' });
  });

  it('creates no graph when asked not to, and says it does not exist', async () => {
    await expect(KnowledgeGraph.open(join(temp.dir, 'absent.kuzu'), { create: false })).rejects.toMatchObject({ code: 'GRAPH_MISSING' });
    expect(existsSync(join(temp.dir, 'absent.kuzu'))).toBe(false);
  });
});
