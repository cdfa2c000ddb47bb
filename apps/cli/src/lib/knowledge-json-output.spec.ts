import { jsonLine } from '../base-command';

describe('the --json line of a command (knowledge search --cypher printed a result too large to serialise as nothing)', () => {
  it('is the JSON of the result when it serialises', () => {
    expect(jsonLine({ ok: true, rows: [[1, 'a']] })).toEqual({ line: '{"ok":true,"rows":[[1,"a"]]}\n', failed: false });
  });

  it('is the error line {ok:false,error,code} when serialising fails, never nothing', () => {
    const tooLarge = { toJSON: (): never => { throw new RangeError('Invalid string length'); } };
    const { line, failed } = jsonLine({ ok: true, rows: [[tooLarge]] });
    expect(failed).toBe(true);
    expect(line.endsWith('\n')).toBe(true);
    expect(JSON.parse(line)).toEqual({ ok: false, error: 'the result could not be printed as JSON: Invalid string length', code: 'INTERNAL' });
  });

  it('names a value JSON cannot hold (a bigint)', () => {
    expect(JSON.parse(jsonLine({ ok: true, n: 1n }).line)).toEqual({ ok: false, error: expect.stringContaining('could not be printed as JSON: Do not know how to serialize a BigInt'), code: 'INTERNAL' });
  });
});
