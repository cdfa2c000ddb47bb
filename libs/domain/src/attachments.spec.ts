import { Attachment, formatAttachmentLine, formatAttachmentText, isAttachmentUrl, parseAttachments } from './attachments';

const HOST = 'cdn.example.com';

describe('formatAttachmentLine', () => {
  it.each<[Attachment, string]>([
    [{ type: 'photo', url: `https://${HOST}/a.jpg` }, `[photo] https://${HOST}/a.jpg`],
    [{ type: 'photo', url: `https://${HOST}/a.jpg`, caption: 'my receipt' }, `[photo] https://${HOST}/a.jpg my receipt`],
    [{ type: 'video', url: `https://${HOST}/v.mp4`, caption: '' }, `[video] https://${HOST}/v.mp4`],
    [{ type: 'audio', url: `https://${HOST}/a.m4a` }, `[audio] https://${HOST}/a.m4a`],
    [{ type: 'file', url: `https://${HOST}/f.pdf`, caption: 'two\nlines' }, `[file] https://${HOST}/f.pdf two lines`],
  ])('formats %o', (attachment, line) => {
    expect(formatAttachmentLine(attachment)).toBe(line);
  });
});

describe('formatAttachmentText', () => {
  it('joins a bundle with \\n', () => {
    expect(
      formatAttachmentText([
        { type: 'photo', url: `https://${HOST}/1.jpg`, caption: 'first' },
        { type: 'photo', url: `https://${HOST}/2.jpg` },
      ]),
    ).toBe(`[photo] https://${HOST}/1.jpg first\n[photo] https://${HOST}/2.jpg`);
  });

  it('gives an empty string for no attachments', () => {
    expect(formatAttachmentText([])).toBe('');
  });
});

describe('parseAttachments', () => {
  it('reads each type', () => {
    const text = ['photo', 'video', 'audio', 'file'].map((t) => `[${t}] https://${HOST}/${t}`).join('\n');
    expect(parseAttachments(text, HOST)).toEqual([
      { type: 'photo', url: `https://${HOST}/photo` },
      { type: 'video', url: `https://${HOST}/video` },
      { type: 'audio', url: `https://${HOST}/audio` },
      { type: 'file', url: `https://${HOST}/file` },
    ]);
  });

  it('reads a caption after one space', () => {
    expect(parseAttachments(`[photo] https://${HOST}/a.jpg the broken part, see left`, HOST)).toEqual([
      { type: 'photo', url: `https://${HOST}/a.jpg`, caption: 'the broken part, see left' },
    ]);
  });

  it('reads a bundle of photos and round-trips with formatAttachmentText', () => {
    const list: Attachment[] = [
      { type: 'photo', url: `https://${HOST}/1.jpg?sig=abc&exp=1`, caption: 'front' },
      { type: 'photo', url: `https://${HOST}/2.jpg` },
      { type: 'photo', url: `https://${HOST}/3.jpg`, caption: 'back [photo] side' },
    ];
    expect(parseAttachments(formatAttachmentText(list), HOST)).toEqual(list);
  });

  it('accepts \\r\\n line ends', () => {
    expect(parseAttachments(`[photo] https://${HOST}/1.jpg\r\n[photo] https://${HOST}/2.jpg\r\n`, HOST)).toEqual([
      { type: 'photo', url: `https://${HOST}/1.jpg` },
      { type: 'photo', url: `https://${HOST}/2.jpg` },
    ]);
  });

  it('compares the host case-insensitively', () => {
    expect(parseAttachments(`[photo] https://CDN.Example.COM/a.jpg`, 'Cdn.Example.Com')).toEqual([
      { type: 'photo', url: 'https://CDN.Example.COM/a.jpg' },
    ]);
  });

  it('keeps only the attachment lines of a mixed message', () => {
    const text = [
      'hello, here is my order',
      `[photo] https://${HOST}/ok.jpg`,
      'see https://shop.example.org/order/1',
      `[photo] https://evil.com/x.jpg`,
    ].join('\n');
    expect(parseAttachments(text, HOST)).toEqual([{ type: 'photo', url: `https://${HOST}/ok.jpg` }]);
  });

  it.each([
    ['http scheme', `[photo] http://${HOST}/a.jpg`],
    ['host as a prefix of another domain', `[photo] https://${HOST}.evil/a.jpg`],
    ['lookalike domain', '[photo] https://cdn.example.evil/a.jpg'],
    ['subdomain', `[photo] https://img.${HOST}/a.jpg`],
    ['parent domain', '[photo] https://example.com/a.jpg'],
    ['host only in the query', `[photo] https://evil.com/?u=https://${HOST}/a.jpg`],
    ['host only in the path', `[photo] https://evil.com/${HOST}/a.jpg`],
    ['userinfo trick', `[photo] https://${HOST}@evil.com/a.jpg`],
    ['userinfo on the right host', `[photo] https://user:pw@${HOST}/a.jpg`],
    ['other port', `[photo] https://${HOST}:8443/a.jpg`],
    ['trailing-dot host', `[photo] https://${HOST}./a.jpg`],
    ['other scheme', `[photo] ftp://${HOST}/a.jpg`],
    ['javascript scheme', `[photo] javascript://${HOST}/%0aalert(1)`],
    ['not a URL', '[photo] not-a-url'],
    ['unknown type', `[image] https://${HOST}/a.jpg`],
    ['upper-case type', `[PHOTO] https://${HOST}/a.jpg`],
    ['no space after the type', `[photo]https://${HOST}/a.jpg`],
    ['two spaces after the type', `[photo]  https://${HOST}/a.jpg`],
    ['text before the type', `look [photo] https://${HOST}/a.jpg`],
    ['bare link', `https://${HOST}/a.jpg`],
  ])('ignores %s', (_name, text) => {
    expect(parseAttachments(text, HOST)).toEqual([]);
  });

  it('finds nothing when the attachment host is empty', () => {
    expect(parseAttachments(`[photo] https://${HOST}/a.jpg`, '')).toEqual([]);
  });

  it('finds nothing in plain text', () => {
    expect(parseAttachments('just a question about my order', HOST)).toEqual([]);
  });
});

describe('isAttachmentUrl', () => {
  it.each([
    [`https://${HOST}/a.jpg`, true],
    [`https://${HOST}:443/a.jpg`, true],
    [`http://${HOST}/a.jpg`, false],
    ['https://cdn.example.evil/a.jpg', false],
    [`https://evil.com/?u=https://${HOST}/a.jpg`, false],
    ['', false],
  ])('%p -> %p', (url, ok) => {
    expect(isAttachmentUrl(url, HOST)).toBe(ok);
  });
});
