import { withoutEscapeSequences } from './escape-sequences';

describe('a text without escape sequences', () => {
  it.each([
    ['a CSI colour at the end', 'Your parcel left today.\u001b[31m', 'Your parcel left today.'],
    ['CSI sequences with parameters, private markers and intermediates', 'a\u001b[1;31mb\u001b[?25lc\u001b[2 qd\u001b[0m', 'abcd'],
    ['a CSI cut off at the end', 'Bye\u001b[12;', 'Bye'],
    ['an OSC ended by BEL', 'Hi\u001b]0;pwned\u0007 there', 'Hi there'],
    ['an OSC ended by ESC \\', 'a \u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\ b', 'a link b'],
    ['an OSC ended by an 8-bit ST', 'a\u001b]2;title\u009cb', 'ab'],
    ['an OSC that never ends, at the end of the text', 'Your parcel left today.\u001b]0;now the window title', 'Your parcel left today.'],
    ['an OSC ended by the next escape sequence', 'a\u001b]0;x\u001b[31mb', 'ab'],
    ['two-character sequences', 'a\u001bcb\u001b7c\u001b8d\u001bMe\u001b=f', 'abcdef'],
    ['a character-set designation', 'a\u001b(Bb', 'ab'],
    ['a DCS string', 'a\u001bP1$r0m\u001b\\b', 'ab'],
    ['SOS, PM and APC strings', 'a\u001bXsos\u001b\\b\u001b^pm\u009cc\u001b_apc\u001b\\d', 'abcd'],
    ['a DCS string that never ends', 'a\u001bPq#0;2;0;0;0', 'a'],
    ['a lone ESC at the end', 'end\u001b', 'end'],
  ])('takes out %s, whole', (_kind, text, expected) => {
    expect(withoutEscapeSequences(text)).toBe(expected);
  });

  it.each([
    ['an OSC that never ends, at a line break', 'Hi \u001b]\nmy parcel 123 never arrived.\nPlease refund.', 'Hi \nmy parcel 123 never arrived.\nPlease refund.'],
    ['a DCS string that never ends, at a line break', 'Approved.\u001bP\r\nIt will arrive in 3 days.', 'Approved.\nIt will arrive in 3 days.'],
    ['a stray ESC before a space', 'Hi\u001b there', 'Hi there'],
    // C1 characters in a UTF-8 text are far more often Latin-1 mojibake (‘ as â\u0080\u0098) than 8-bit sequences
    ['8-bit introducers, one character each', 'Café â\u0080\u0098quoted\u0080\u0099 then \u009d0;the rest\u0007 a\u009bHello', 'Café âquoted then 0;the rest aHello'],
  ])('keeps the text after %s', (_kind, text, expected) => {
    expect(withoutEscapeSequences(text)).toBe(expected);
  });

  it('then takes out the other control characters and the bidi overrides, keeping tabs and newlines', () => {
    expect(withoutEscapeSequences('a\u0007b\u0000c\u007fd\u0085e\u202ef\u2066g\tk\nl')).toBe('abcdefg\tk\nl');
  });

  it('leaves a text without escapes as it is', () => {
    const text = 'Your parcel [ref 31m] left today: see https://x.example/a?b=c#d ~ 100% 안녕하세요 \u{1F600}\n\tThanks!';
    expect(withoutEscapeSequences(text)).toBe(text);
    expect(withoutEscapeSequences('')).toBe('');
  });
});
