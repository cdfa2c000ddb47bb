import { TEST_TOKENS } from '@brandwire/client/testing';
import { CliSandbox } from './test-support/cli';

describe('a key in BRANDWIRE_TOKEN that the service refuses', () => {
  let s: CliSandbox;
  let config: string;

  const ENV_KEY_HINT = 'the key in BRANDWIRE_TOKEN was refused: set it to a key of this service, or unset it to use the stored key';

  beforeAll(async () => {
    s = await CliSandbox.start();
    config = s.configDir('env-key');
    // a stored key the service takes: the one from the environment overrides it
    expect((await s.run(['setup', TEST_TOKENS.reader], { config })).code).toBe(0);
  });
  afterAll(async () => {
    await s.stop();
  });

  it.each([[['whoami']], [['knowledge', 'build']]])('%j names BRANDWIRE_TOKEN in its hint, not the stored key (exit 4)', async (args) => {
    const env = { BRANDWIRE_TOKEN: 'bw_revoked_or_unknown' };
    const text = await s.run(args, { config, env });
    expect(text.code).toBe(4);
    expect(text.stderr).toBe(`Error: unknown key (UNAUTHORIZED)\nHint: ${ENV_KEY_HINT}\n`);
    const json = await s.run([...args, '--json'], { config, env });
    expect(json.code).toBe(4);
    expect(json.json()).toEqual({ ok: false, error: 'unknown key', code: 'UNAUTHORIZED', status: 401, hint: ENV_KEY_HINT });
    // unset, the stored key is used and taken
    expect((await s.run(['whoami', '--json'], { config })).json()).toMatchObject({ name: 'viewer' });
  });
});
