import { shellCommand, shellWord } from './shell-words';

describe('shellWord', () => {
  it.each([
    ['acme-kakao', 'acme-kakao'],
    ['/tmp/receipt.png', '/tmp/receipt.png'],
    ['3f2c0d9e-1b4a-4c1e-9a57-0d1e2f3a4b5c', '3f2c0d9e-1b4a-4c1e-9a57-0d1e2f3a4b5c'],
    ['Your order left', "'Your order left'"],
    ["It's here", "'It'\\''s here'"],
    ['$HOME `id` *', "'$HOME `id` *'"],
    ['', "''"],
    // zsh expands a word starting with = (=ls is the path of ls), every shell a leading ~
    ['=order', "'=order'"],
    ['~/receipt.png', "'~/receipt.png'"],
    ['key=value', 'key=value'],
  ])('writes %j as %s', (word, typed) => {
    expect(shellWord(word)).toBe(typed);
  });

  it('joins a command line', () => {
    expect(shellCommand(['brandwire', 'send', '--text', 'a b'])).toBe("brandwire send --text 'a b'");
  });
});
