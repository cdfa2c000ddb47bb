import { withoutControlCharacters } from '@brandwire/domain';
import { paint } from './output';
import { safeForTerminal, shownControls } from './terminal-text';

describe('text shown on a terminal', () => {
  it('shows control characters as visible signs and keeps tabs and newlines', () => {
    expect(shownControls('a\u001b[2Jb\u0007c\rd\u007fe\tf\ng')).toBe('a␛[2Jb␇c␍d␡e\tf\ng');
  });

  it('shows C1 controls and bidi overrides as escapes', () => {
    expect(shownControls('x\u009by\u202ez\u2066')).toBe('x\\u009by\\u202ez\\u2066');
  });

  it('keeps the colours paint() writes and shows any other escape sequence', () => {
    const text = `${paint('Error:', 'red', true)} bad \u001b]0;title\u0007 ${paint('dim', 'dim', true)}`;
    expect(safeForTerminal(text)).toBe('\u001b[31mError:\u001b[39m bad ␛]0;title␇ \u001b[2mdim\u001b[22m');
  });
});

describe('the control characters shown as signs', () => {
  it('are those the domain takes out of texts', () => {
    const disagreeing: number[] = [];
    for (let code = 0; code <= 0xffff; code += 1) {
      const char = String.fromCharCode(code);
      if ((shownControls(char) !== char) !== (withoutControlCharacters(char) === '')) disagreeing.push(code);
    }
    expect(disagreeing).toEqual([]);
    expect(shownControls('\u0085')).not.toBe('\u0085');
  });
});
