import { blockedAddressReason, checkWebhookUrl } from './webhook-url-policy';

const publicDns = (addresses: string[]) => () => Promise.resolve(addresses);

describe('webhook URL policy', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.9', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['fd00::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['::ffff:10.0.0.1', 'private'],
    // IPv4-compatible (::a.b.c.d, deprecated) addresses reach the embedded IPv4 address on many stacks
    ['::a9fe:a9fe', 'linkLocal'],
    ['::169.254.169.254', 'linkLocal'],
    ['::7f00:1', 'loopback'],
    ['::10.0.0.1', 'private'],
    ['::2', 'unspecified'],
    // transition addresses that reach an embedded IPv4 address through a relay or translator are refused whole
    ['2002:a9fe:a9fe::1', '6to4'],
    ['2002:5db8:d822::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:5601:5656', 'teredo'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052'],
    ['64:ff9b:1::a9fe:a9fe', 'rfc6052'],
    ['fec0::1', 'deprecatedSiteLocal'],
  ])('blocks %s (%s)', (address, range) => {
    expect(blockedAddressReason(address, { allowLoopback: false })).toContain(range);
  });

  it('allows public addresses, and loopback only when asked', () => {
    expect(blockedAddressReason('93.184.216.34', { allowLoopback: false })).toBeUndefined();
    expect(blockedAddressReason('2606:2800:220:1:248:1893:25c8:1946', { allowLoopback: false })).toBeUndefined();
    // an IPv4-compatible address is as public as the IPv4 address it embeds
    expect(blockedAddressReason('::5db8:d822', { allowLoopback: false })).toBeUndefined();
    expect(blockedAddressReason('::a9fe:a9fe', { allowLoopback: false })).toBe('::a9fe:a9fe is a linkLocal address (it embeds 169.254.169.254)');
    expect(blockedAddressReason('127.0.0.1', { allowLoopback: true })).toBeUndefined();
  });

  it('accepts an https URL whose host resolves to public addresses only', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/in', { allowLoopback: false }, publicDns(['93.184.216.34']))).toMatchObject({ ok: true });
  });

  it.each([
    ['http://hooks.example.com/in', 'https'],
    ['https://10.0.0.5/in', 'private'],
    ['https://[::1]/in', 'loopback'],
    ['https://169.254.169.254/latest/meta-data', 'linkLocal'],
    ['https://[::a9fe:a9fe]/latest/meta-data', 'linkLocal'],
    ['https://[::7f00:1]/in', 'loopback'],
    ['https://[2002:a9fe:a9fe::]/in', '6to4'],
    ['https://user:pw@hooks.example.com/', 'credentials'],
    ['not a url', 'not a URL'],
  ])('refuses %s', async (url, fragment) => {
    const verdict = await checkWebhookUrl(url, { allowLoopback: false }, publicDns(['93.184.216.34']));
    expect(verdict).toEqual({ ok: false, reason: expect.stringContaining(fragment) });
  });

  it('says a URL must be https before looking its host up (a host that does not resolve says nothing of it)', async () => {
    const noDns = () => Promise.reject(new Error('ENOTFOUND'));
    for (const url of ['ftp://example.com/x', 'http://example.com/x']) {
      expect(await checkWebhookUrl(url, { allowLoopback: false }, noDns)).toEqual({ ok: false, reason: 'the URL must be https' });
    }
    expect(await checkWebhookUrl('ftp://example.com/x', { allowLoopback: true }, noDns)).toEqual({ ok: false, reason: 'the URL must be https (http only for loopback addresses)' });
    expect(await checkWebhookUrl('https://example.invalid/x', { allowLoopback: false }, noDns)).toEqual({ ok: false, reason: 'the host example.invalid does not resolve' });
    // with the sandbox, http is for loopback hosts: one that does not resolve is refused for its scheme
    expect(await checkWebhookUrl('http://example.com/x', { allowLoopback: true }, noDns)).toEqual({ ok: false, reason: 'the URL must be https (http only for loopback addresses)' });
  });

  it('refuses a host that resolves to a private address (DNS pointing inside)', async () => {
    expect(await checkWebhookUrl('https://inside.example.com/', { allowLoopback: false }, publicDns(['93.184.216.34', '10.0.0.7']))).toMatchObject({ ok: false });
  });

  it('allows http to loopback only while the sandbox is the upstream', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:9000/hook', { allowLoopback: true })).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('http://localhost:9000/hook', { allowLoopback: true })).toMatchObject({ ok: true });
    expect(await checkWebhookUrl('http://127.0.0.1:9000/hook', { allowLoopback: false })).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('http://hooks.example.com/', { allowLoopback: true }, publicDns(['93.184.216.34']))).toMatchObject({ ok: false });
  });
});
