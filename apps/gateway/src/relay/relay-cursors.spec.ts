import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RelayCursors } from './relay-cursors';

describe('RelayCursors', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'relay-cursors-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps each place in a file only its owner reads, and reads it back', () => {
    const file = join(dir, 'gateway', 'relay-cursors.json');
    const cursors = new RelayCursors(file);
    cursors.keep('http://a acme-kakao CRM', '12.1');
    cursors.keep('http://a acme-kakao team chat', '9.0');
    cursors.forget('http://a acme-kakao team chat');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ 'http://a acme-kakao CRM': '12.1' });
    expect(new RelayCursors(file).of('http://a acme-kakao CRM')).toBe('12.1');
  });

  it('names a damaged file and says what to do', () => {
    const file = join(dir, 'relay-cursors.json');
    writeFileSync(file, '{"http://a acme-kakao CRM": "12.');
    expect(() => new RelayCursors(file)).toThrow(`${file} is not the relay's cursors (damaged?): move it away, and each channel's relay starts at its end`);
  });
});
