import type { KnowledgeGraph } from '@brandwire/knowledge';
import { setTimeout as sleep } from 'node:timers/promises';
import { GraphFile } from './graph-file';

/** A graph whose close takes `closeMs`, telling when it is closed. */
function slowClosingGraph(closeMs: number): { graph: KnowledgeGraph; closed: () => boolean } {
  let closed = false;
  const graph = {
    close: async () => {
      await sleep(closeMs);
      closed = true;
    },
  } as unknown as KnowledgeGraph;
  return { graph, closed: () => closed };
}

describe('GraphFile', () => {
  it('answers release() once the graph is closed, also when its idle close is under way', async () => {
    const { graph, closed } = slowClosingGraph(200);
    const file = new GraphFile(() => Promise.resolve(graph), 20);
    await file.use(() => Promise.resolve(undefined));
    // the idle close starts after 20 ms and takes 200
    await sleep(60);
    expect(closed()).toBe(false);
    await file.release();
    expect(closed()).toBe(true);
  });
});
