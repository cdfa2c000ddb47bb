import type { KuzuValue } from './kuzu-native';
import { estimatedJsonSize, toJsonValue } from './result-json';

const printed = (value: KuzuValue): number => JSON.stringify(toJsonValue(value)).length;

describe('estimatedJsonSize', () => {
  it.each<[string, KuzuValue]>([
    ['a string', 'x'.repeat(1000)],
    ['a node', { _id: { offset: 12, table: 3 }, _label: 'Inquiry', id: 'conv-1#2', text: 'where is my parcel'.repeat(5), ts: 1795704904939 }],
    ['a relation', { _src: { offset: 4123, table: 2 }, _dst: { offset: 9, table: 5 }, _id: { offset: 77, table: 8 }, _label: 'HAS_TURN', turn: 3 }],
    ['a list of maps', [{ a: 'b'.repeat(50), n: 7 }, { a: '', n: 1e6 }]],
  ])('stays within a factor of 1.6 of what %s prints as', (_what, value) => {
    const ratio = estimatedJsonSize(value) / printed(value);
    expect(ratio).toBeGreaterThan(1 / 1.6);
    expect(ratio).toBeLessThan(1.6);
  });

  it('counts a map that only looks like an internal id by its content', () => {
    const value = { offset: 1, table: 2, note: 'y'.repeat(500) } as unknown as KuzuValue;
    expect(estimatedJsonSize(value)).toBeGreaterThan(500);
  });
});
