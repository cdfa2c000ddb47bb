import { ApiError, NetworkError } from '@brandwire/client';
import { CliError, authRequired, usageError } from './cli-error';
import { failureOf } from './failure';

describe('failureOf', () => {
  it.each([
    ['a usage error', usageError('missing --channel', 'pass it'), { code: 'USAGE', exit: 2, message: 'missing --channel', hint: 'pass it' }],
    ['no stored key', authRequired(), { code: 'AUTH_REQUIRED', exit: 4 }],
    ['a messenger refusal', new CliError('-502', 'session ended', 1, { serial: 's1' }), { code: '-502', exit: 1, details: { serial: 's1' } }],
    ['a refused key', new ApiError(401, 'UNAUTHORIZED', 'unknown key'), { code: 'UNAUTHORIZED', exit: 4, details: { status: 401 }, hint: expect.stringContaining('setup') }],
    ['a missing scope', new ApiError(403, 'FORBIDDEN', 'needs Admin'), { code: 'FORBIDDEN', exit: 1, hint: expect.stringContaining('whoami') }],
    ['a bare HTTP failure', new ApiError(502, 'HTTP_502', 'bad gateway'), { code: 'HTTP_502', exit: 1, hint: expect.stringContaining('check --endpoint') }],
    ['no answer', new NetworkError('http://x', 'ECONNREFUSED'), { code: 'NETWORK', exit: 1, message: 'could not reach the service at http://x: ECONNREFUSED' }],
    [
      'a read without an answer in time',
      new NetworkError('http://x', 'no answer within 30000 ms', { method: 'GET', path: '/api/agent/rooms', failure: 'timeout', timeoutMs: 30_000 }),
      { code: 'NETWORK', exit: 1, message: 'could not reach the service at http://x: no answer within 30000 ms' },
    ],
    [
      'a change without an answer in time',
      new NetworkError('http://x', 'no answer within 30000 ms', { method: 'POST', path: '/api/agent/block', failure: 'timeout', timeoutMs: 30_000 }),
      { code: 'TIMEOUT', exit: 1, message: 'no answer from the service at http://x within 30 s: POST /api/agent/block may have been carried out' },
    ],
    [
      'a change whose connection broke before the answer',
      new NetworkError('http://x', 'the connection broke before the answer (EPIPE)', { method: 'PUT', path: '/api/agent/settings/profile', failure: 'connection-broke', errorCode: 'EPIPE' }),
      { code: 'TIMEOUT', exit: 1, message: 'the connection to the service at http://x broke before its answer (EPIPE): PUT /api/agent/settings/profile may have been carried out' },
    ],
    [
      'a read whose connection broke before the answer',
      new NetworkError('http://x', 'the connection broke before the answer (ECONNRESET)', { method: 'GET', path: '/api/agent/rooms', failure: 'connection-broke', errorCode: 'ECONNRESET' }),
      { code: 'NETWORK', exit: 1, message: 'could not reach the service at http://x: the connection broke before the answer (ECONNRESET)' },
    ],
    ['a bug', new TypeError('x is undefined'), { code: 'INTERNAL', exit: 1, message: 'x is undefined' }],
    ['Ctrl-C at a prompt', Object.assign(new Error('User force closed the prompt with SIGINT'), { name: 'ExitPromptError' }), { code: 'CANCELLED', exit: 1, message: 'cancelled at the prompt: nothing was stored' }],
  ])('reports %s', (_, error, expected) => {
    expect(failureOf(error)).toMatchObject(expected);
  });

  it('cleans oclif parse errors into one line (usage, exit 2)', () => {
    const parse = Object.assign(new Error('The following error occurred:\n  Missing required flag max\nSee more help with --help'), { oclif: { exit: 2 } });
    expect(failureOf(parse)).toMatchObject({ code: 'USAGE', exit: 2, message: 'Missing required flag --max' });
  });

  it('words a missing --channel as the commands that take a default channel do, with the same hint', () => {
    const parse = Object.assign(new Error('The following error occurred:\n  Missing required flag channel\nSee more help with --help'), {
      oclif: { exit: 2 },
      parse: { input: { flags: { channel: { aliases: ['brand'] } } } },
    });
    expect(failureOf(parse)).toMatchObject({ code: 'USAGE', exit: 2, message: 'missing --channel: the brand key of the channel, e.g. --channel acme-kakao', hint: '`brandwire whoami` lists the channels' });
  });

  it('names a missing flag as it is typed, with its aliases, and missing arguments on one line', () => {
    const flag = Object.assign(new Error('The following error occurred:\n  \u001b[2mMissing required flag to\u001b[22m\nSee more help with --help'), {
      oclif: { exit: 2 },
      parse: { input: { flags: { to: { aliases: ['user'] } } } },
    });
    expect(failureOf(flag).message).toBe('Missing required flag --to (alias: --user)');
    const args = Object.assign(new Error('Missing 1 required arg:\nid  the model id\nSee more help with --help'), { oclif: { exit: 2 }, args: [{ name: 'id', description: 'the model id' }] });
    expect(failureOf(args)).toMatchObject({ code: 'USAGE', exit: 2, message: 'Missing 1 required arg: <id> (the model id)' });
  });

  it("keeps oclif's note about arguments before a flag of many values only where that flag takes them all", () => {
    const missing = (flag: { multiple: boolean; multipleNonGreedy?: boolean }) =>
      Object.assign(new Error('Missing 1 required arg:\nname  the name\n\nNote: --brand allows multiple values. Because of this you need to provide all arguments before providing that flag.\nSee more help with --help'), {
        oclif: { exit: 2 },
        args: [{ name: 'name', description: 'the name' }],
        parse: { input: { flags: { brand: flag } } },
      });
    expect(failureOf(missing({ multiple: true })).message).toBe('Missing 1 required arg: <name> (the name); Note: --brand allows multiple values. Because of this you need to provide all arguments before providing that flag.');
    expect(failureOf(missing({ multiple: true, multipleNonGreedy: true })).message).toBe('Missing 1 required arg: <name> (the name)');
  });

  it('says the key in BRANDWIRE_TOKEN was refused, not the stored one, when the key in use came from there', () => {
    const refused = new ApiError(401, 'UNAUTHORIZED', 'unknown key');
    expect(failureOf(refused, { BRANDWIRE_TOKEN: 'bw_unknown' })).toMatchObject({
      code: 'UNAUTHORIZED',
      exit: 4,
      hint: 'the key in BRANDWIRE_TOKEN was refused: set it to a key of this service, or unset it to use the stored key',
    });
    // an empty BRANDWIRE_TOKEN leaves the stored key in use
    for (const env of [{}, { BRANDWIRE_TOKEN: '' }]) {
      expect(failureOf(refused, env).hint).toBe('the stored key was refused: run `brandwire setup <key>` or `brandwire login` again');
    }
  });

  it('points an answer that is not the service\'s to the endpoint in use', () => {
    expect(failureOf(new ApiError(200, 'BAD_RESPONSE', 'the endpoint http://x did not answer as a Brandwire service: …'))).toMatchObject({ code: 'BAD_RESPONSE', exit: 1, hint: expect.stringContaining('--endpoint') });
  });
});
