import type { DeviceCode, DeviceTokenPoll, DeviceTokenRefusal } from '@brandwire/client';
import { deviceLogin } from './device-login';

const CODE: DeviceCode = {
  device_code: 'dc',
  user_code: 'BCDF-GHJK',
  verification_uri: 'http://svc/pair',
  verification_uri_complete: 'http://svc/pair?code=BCDF-GHJK',
  expires_in: 60,
  interval: 5,
};
const TOKEN = { access_token: 'bw_new', token_type: 'Bearer' as const, scope: 'BrandWrite' as const, brands: ['acme'], name: 'cli' };
const refuse = (error: DeviceTokenRefusal['error'], interval?: number): DeviceTokenPoll => ({ issued: false, refusal: { error, ...(interval ? { interval } : {}) } });

/** A fake service answering the polls in order, on a fake clock; every answer must be used. */
function fakeService(answers: DeviceTokenPoll[]) {
  let now = 0;
  const sleeps: number[] = [];
  const shown: DeviceCode[] = [];
  const opened: string[] = [];
  const deps = {
    requestDeviceCode: () => Promise.resolve(CODE),
    pollDeviceToken: (deviceCode: string) => {
      expect(deviceCode).toBe('dc');
      const next = answers.shift();
      if (!next) throw new Error('polled more often than expected');
      return Promise.resolve(next);
    },
    tell: (code: DeviceCode) => void shown.push(code),
    openBrowser: (url: string) => Promise.resolve(opened.push(url) > 0),
    sleep: (ms: number) => {
      sleeps.push(ms);
      now += ms;
      return Promise.resolve();
    },
    now: () => now,
  };
  return { deps, sleeps, shown, opened, left: () => answers.length };
}

describe('deviceLogin (RFC 8628 from the tool)', () => {
  it('shows the code, opens the page, waits the interval between polls and returns the issued key', async () => {
    const f = fakeService([refuse('authorization_pending'), refuse('authorization_pending'), { issued: true, token: TOKEN }]);
    await expect(deviceLogin(f.deps)).resolves.toEqual(TOKEN);
    expect(f.shown).toEqual([CODE]);
    expect(f.opened).toEqual(['http://svc/pair?code=BCDF-GHJK']);
    expect(f.sleeps).toEqual([5000, 5000, 5000]);
    expect(f.left()).toBe(0);
  });

  it('adds 5 seconds to the interval on slow_down, for every later poll', async () => {
    const f = fakeService([refuse('slow_down', 10), refuse('authorization_pending'), refuse('slow_down'), { issued: true, token: TOKEN }]);
    await deviceLogin(f.deps);
    expect(f.sleeps).toEqual([5000, 10000, 10000, 15000]);
  });

  it.each([
    ['access_denied', 'ACCESS_DENIED'],
    ['expired_token', 'EXPIRED_TOKEN'],
    ['invalid_grant', 'LOGIN_FAILED'],
  ] as const)('fails on %s with %s (exit 1)', async (error, code) => {
    const f = fakeService([refuse('authorization_pending'), refuse(error)]);
    await expect(deviceLogin(f.deps)).rejects.toMatchObject({ name: 'CliError', code, exit: 1 });
    expect(f.left()).toBe(0);
  });

  it('gives up with EXPIRED_TOKEN once expires_in has passed, without another poll', async () => {
    const f = fakeService(Array.from({ length: 11 }, () => refuse('authorization_pending')));
    await expect(deviceLogin(f.deps)).rejects.toMatchObject({ code: 'EXPIRED_TOKEN' });
    expect(f.sleeps).toHaveLength(12);
    expect(f.left()).toBe(0);
  });
});
