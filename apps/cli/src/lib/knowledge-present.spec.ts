import type { SearchHit } from '@brandwire/knowledge';
import { presentHits } from './knowledge-present';

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
