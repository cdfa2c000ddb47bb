import type { SearchHit } from '@brandwire/knowledge';
import { type KnowledgeStatusView, presentHits, presentStatus } from './knowledge-present';

const hit = (over: Partial<SearchHit>): SearchHit => ({
  kind: 'inquiry',
  id: 'c-1#1',
  convId: 'c-1',
  turn: 1,
  role: 'customer',
  text: 'hello there',
  ts: null,
  score: 1.2345,
  match: 'full-text',
  ...over,
});

describe('presentHits', () => {
  it('shows the score of a ranked hit, and "words" for a hit that holds every word but has no score', async () => {
    const text = await presentHits([hit({}), hit({ id: 'c-2#1', convId: 'c-2', score: 0, match: 'words' })], 'hello');
    expect(text).toMatch(/│ 1\.23 +│ inquiry │ customer │ c-1 /);
    expect(text).toMatch(/│ words +│ inquiry │ customer │ c-2 /);
  });

  it('says when nothing matches', async () => {
    expect(await presentHits([], 'zeppelin')).toBe('Nothing in the graph matches "zeppelin".');
  });
});

describe('presentStatus', () => {
  const status = (over: Partial<KnowledgeStatusView>): KnowledgeStatusView => ({
    installed: true, enabled: true, queryPort: 8790, graphPath: '/g/graph.kuzu', via: 'graph', kuzuVersion: '0.11.3', nodes: {}, relations: {}, ftsIndexes: [], ...over,
  });

  it.each([
    [{ via: 'gateway' as const }, 'the gateway (port 8790)'],
    [{ via: 'graph' as const }, 'the graph file (the gateway is not running)'],
    [{ via: 'graph' as const, unansweredGatewayPid: 4242 }, 'the graph file, read-only beside the gateway (pid 4242), which runs but whose query API did not answer just now'],
  ])('says what it read through: %j', async (over, text) => {
    const line = (await presentStatus(status(over))).split('\n').find((l) => l.startsWith('read through:'));
    expect(line?.replace(/^read through: +/, '')).toBe(text);
  });
});
