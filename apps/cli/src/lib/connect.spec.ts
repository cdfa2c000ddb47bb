import { CliError } from './cli-error';
import { checkServiceEndpoint } from './connect';

/** The failure `check` reports, as code, exit, message and hint (or `passed` when it took the value). */
function refusal(check: () => unknown): { code: string; exit: number; message: string; hint: string | undefined } | 'passed' {
  try {
    check();
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    return { code: error.code, exit: error.exit, message: error.message, hint: error.hint };
  }
  return 'passed';
}

describe('checkServiceEndpoint', () => {
  it.each([
    ['http://127.0.0.1:18941/api', 'http://127.0.0.1:18941'],
    ['http://127.0.0.1:18941/api/', 'http://127.0.0.1:18941'],
    ['https://chat.example.com/API//', 'https://chat.example.com'],
    ['https://example.com/brandwire/api', 'https://example.com/brandwire'],
  ])('refuses %s (the tool adds /api itself), naming %s', (endpoint, base) => {
    expect(refusal(() => checkServiceEndpoint(endpoint))).toEqual({
      code: 'USAGE',
      exit: 2,
      message: `--endpoint must be the service's base address, without /api: ${base}`,
      hint: `the tool adds /api/agent/… itself: \`brandwire setup <key> --endpoint ${base}\``,
    });
  });

  it('names the environment and setup when the endpoint in use came from there', () => {
    expect(refusal(() => checkServiceEndpoint('http://127.0.0.1:8080/api', 'the endpoint'))).toEqual({
      code: 'USAGE',
      exit: 2,
      message: "the endpoint must be the service's base address, without /api: http://127.0.0.1:8080",
      hint: '`brandwire env` shows where it comes from: set BRANDWIRE_ENDPOINT to http://127.0.0.1:8080, or store it with `brandwire setup <key> --endpoint http://127.0.0.1:8080`',
    });
  });

  it('takes a base address, also one under a path of a reverse proxy, without its trailing slashes', () => {
    expect(checkServiceEndpoint('http://127.0.0.1:8080/')).toBe('http://127.0.0.1:8080');
    expect(checkServiceEndpoint('https://example.com/brandwire/')).toBe('https://example.com/brandwire');
    expect(checkServiceEndpoint('https://example.com/apis')).toBe('https://example.com/apis');
    expect(checkServiceEndpoint('https://example.com/api/v2')).toBe('https://example.com/api/v2');
  });

  it('still refuses what is not an http(s) URL', () => {
    expect(refusal(() => checkServiceEndpoint('ftp://host/api'))).toMatchObject({ code: 'USAGE', message: '--endpoint must be an http or https URL, got "ftp://host/api"' });
  });
});
