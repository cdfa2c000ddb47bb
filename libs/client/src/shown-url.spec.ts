import { shownEndpoint, shownUrl, withoutUserinfo } from './shown-url';

describe('shownUrl', () => {
  it.each([
    ['http://u:pw@127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['https://brandwire.example.com/base?tok=q#frag', 'https://brandwire.example.com/base'],
    ['HTTPS://Brandwire.Example.com:443/', 'https://brandwire.example.com'],
  ])('shows the endpoint %s as %s', (url, shown) => {
    expect(shownEndpoint(url)).toBe(shown);
  });

  it.each([
    ['https://hooks.slack.com/services/T0/B0/secret', 'https://hooks.slack.com/…'],
    ['https://crm.example.com/?key=secret', 'https://crm.example.com/…'],
    ['https://user:pw@crm.example.com/', 'https://crm.example.com'],
  ])('shows a webhook %s by its origin: %s', (url, shown) => {
    expect(shownUrl(url, 'hidden')).toBe(shown);
  });

  it('shows nothing of what is no URL', () => {
    expect([shownUrl('not a url', 'shown'), shownEndpoint('not a url')]).toEqual([undefined, 'an endpoint that is not a URL']);
  });

  it('takes out a userinfo whose password holds an @, whole', () => {
    expect(withoutUserinfo('got "http://u:p@ss3cret@[::1"')).toBe('got "http://[::1"');
  });

  it('takes the userinfo out of every URL a message quotes', () => {
    expect(withoutUserinfo('Request cannot be constructed from a URL that includes credentials: http://u:PW@127.0.0.1:1/api/x')).toBe(
      'Request cannot be constructed from a URL that includes credentials: http://127.0.0.1:1/api/x',
    );
  });
});
