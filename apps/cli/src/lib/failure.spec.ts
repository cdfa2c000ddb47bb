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

  it('points an answer that is not the service\'s to the endpoint in use', () => {
    expect(failureOf(new ApiError(200, 'BAD_RESPONSE', 'the endpoint http://x did not answer as a Brandwire service: …'))).toMatchObject({ code: 'BAD_RESPONSE', exit: 1, hint: expect.stringContaining('--endpoint') });
  });
});
