import { checkAttachmentHost } from './knowledge-build';

describe('checkAttachmentHost', () => {
  it.each([
    ['talk-cdn.sandbox.invalid', 'talk-cdn.sandbox.invalid'],
    [' CDN.Example.com ', 'cdn.example.com'],
    ['cdn.example.com:8443', 'cdn.example.com:8443'],
  ])('takes %j as %j', (value, host) => {
    expect(checkAttachmentHost(value)).toBe(host);
  });

  it.each(['', 'https://cdn.example.com', 'cdn.example.com/files', 'user@cdn.example.com', 'cdn example.com'])('refuses %j as a usage error', (value) => {
    expect(() => checkAttachmentHost(value)).toThrow(expect.objectContaining({ code: 'USAGE', exit: 2, message: expect.stringContaining('--attachment-host must be a host name') }));
  });
});
