import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MEMOS_KEPT, Memos } from './memos';

describe('Memos', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'bw-memos-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the latest memos of each customer in a file of its owner only, read again at the next start', () => {
    const path = join(dir, 'memos.json');
    const memos = new Memos(path);
    for (let i = 0; i < MEMOS_KEPT + 2; i++) memos.add('acme-kakao', 'rita', { at: new Date(i * 1000).toISOString(), by: 'jun', text: `memo ${i}` });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const again = new Memos(path);
    expect(again.of('acme-kakao', 'rita').map((m) => m.text)).toEqual(Array.from({ length: MEMOS_KEPT }, (_, i) => `memo ${i + 2}`));
    expect(again.of('acme-kakao', 'kim')).toEqual([]);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toHaveProperty(['acme-kakao:rita']);
  });

  it('refuses a damaged file at start, naming it, rather than failing at the first /cs-who', () => {
    const path = join(dir, 'memos.json');
    writeFileSync(path, JSON.stringify({ 'acme-kakao:rita': [{ at: 'yesterday', by: 'jun', text: 'x' }] }));
    expect(() => new Memos(path)).toThrow(`the memos file ${path} is damaged (the memos of acme-kakao:rita are not a list of {at, by, text}): move it away to start without memos`);
    writeFileSync(path, '{"a":');
    expect(() => new Memos(path)).toThrow(`the memos file ${path} is damaged`);
  });
});
