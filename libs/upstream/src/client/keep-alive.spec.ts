import { TCP_KEEP_ALIVE_MS, createKeepAliveAxios, proxySetting } from './keep-alive';

describe('the keep-alive axios instance', () => {
  it('turns the per-request proxy lookup off only when no proxy variable is set', () => {
    expect(proxySetting({})).toBe(false);
    expect(proxySetting({ NO_PROXY: 'localhost', PATH: '/usr/bin' })).toBe(false);
    expect(proxySetting({ http_proxy: '' })).toBe(false);
    for (const name of ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY']) {
      expect(proxySetting({ [name]: 'http://proxy.example:3128' })).toBeUndefined();
    }
  });

  it('keeps one fixed configuration: keep-alive agents with the TCP keep-alive delay axios sets, a timeout, no redirects', () => {
    const { http, destroy } = createKeepAliveAxios({ baseUrl: 'http://127.0.0.1:9/', partnerKey: 'pk', timeoutMs: 1234 });
    try {
      const agent = http.defaults.httpAgent as { keepAlive: boolean; keepAliveMsecs: number };
      expect(agent.keepAlive).toBe(true);
      expect(agent.keepAliveMsecs).toBe(TCP_KEEP_ALIVE_MS);
      expect(http.defaults.timeout).toBe(1234);
      expect(http.defaults.maxRedirects).toBe(0);
      expect(http.defaults.baseURL).toBe('http://127.0.0.1:9');
    } finally {
      destroy();
    }
  });
});
