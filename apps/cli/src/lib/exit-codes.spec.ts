import { ERROR_CODES } from '@brandwire/domain';
import { EXIT, exitCodeOf } from './exit-codes';

describe('exit codes', () => {
  it('are 0 ok, 1 error, 2 usage, 3 partly done, 4 authentication needed', () => {
    expect(EXIT).toEqual({ ok: 0, error: 1, usage: 2, partly: 3, auth: 4 });
  });

  it('map UNAUTHORIZED to 4 and every other service error code to 1', () => {
    const table = Object.fromEntries(ERROR_CODES.map((code) => [code, exitCodeOf(code)]));
    expect(table).toEqual(Object.fromEntries(ERROR_CODES.map((code) => [code, code === 'UNAUTHORIZED' ? 4 : 1])));
  });
});
