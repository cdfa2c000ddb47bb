import { TEST_TOKENS } from '@brandwire/client/testing';
import { CliSandbox, LAUNCHER } from './test-support/cli';
import { Pty } from './test-support/pty';

describe('reading rooms, messages, history, profile and system messages', () => {
  let s: CliSandbox;
  const reader = { token: TEST_TOKENS.reader };
  const year = String(new Date().getFullYear());

  beforeAll(async () => {
    s = await CliSandbox.start();
    await s.service.customerWrites('alice', 'Where is my order?');
    await s.service.customerWrites('bob', 'Line one\nline two');
    await s.run(['send', '--channel', 'acme-kakao', '--to', 'alice', '--text', 'It left today.'], { token: TEST_TOKENS.writer });
  });
  afterAll(async () => {
    await s.stop();
  });

  it('lists the rooms in progress as JSON (the REST answer) and as a table with years in the timestamps', async () => {
    const json = await s.run(['rooms', '--channel', 'acme-kakao', '--json'], reader);
    expect(json.code).toBe(0);
    expect(json.json()).toEqual({
      ok: true,
      brand: 'acme-kakao',
      rooms: expect.arrayContaining([expect.objectContaining({ userKey: 'alice', lastText: 'It left today.', lastKind: 'agent' }), expect.objectContaining({ userKey: 'bob' })]),
    });
    const text = await s.run(['rooms', '--brand', 'acme-kakao'], reader);
    expect(text.stdout).toMatch(/│ CUSTOMER │ LAST ACTIVITY +│ KIND +│ LAST TEXT +│ ITEMS │/);
    expect(text.stdout).toMatch(new RegExp(`│ alice +│ ${year}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d [+-]\\d\\d:\\d\\d │ agent +│ It left today\\. +│ 3 +│`));
    // a customer's message is named as `history` names it
    expect(text.stdout).toMatch(/│ bob +│ [^│]+│ customer +│ Line one ⏎ line two +│ \d+ +│/);
    expect(text.stdout).not.toMatch(/│ message +│/);
    expect(text.stdout).not.toContain('\u001b[');
  });

  it("shows one room's messages with --user or --to, newest first, limited by --max", async () => {
    const json = await s.run(['rooms', '--channel', 'acme-kakao', '--user', 'alice', '--max', '2', '--json'], reader);
    expect(json.json()).toEqual({
      ok: true,
      brand: 'acme-kakao',
      userKey: 'alice',
      messages: [expect.objectContaining({ kind: 'agent', text: 'It left today.', serial: expect.any(String) }), expect.objectContaining({ kind: 'message', text: 'Where is my order?' })],
    });
    const text = await s.run(['rooms', '--channel', 'acme-kakao', '--to', 'alice'], reader);
    expect(text.stdout).toMatch(/^Messages with alice on acme-kakao, newest first:\n/);
    expect(text.stdout).toMatch(new RegExp(`│ \\d+ +│ ${year}-\\d\\d-\\d\\d [\\d:]{8} [+-][\\d:]{5} │ customer +│ Where is my order\\? +│`));
  });

  it("shows a customer's control characters as signs instead of sending them to the terminal", async () => {
    await s.service.customerWrites('mallory', 'hi \u001b[2J\u001b]0;pwned\u0007 one\rtwo \u202eevil');
    for (const args of [['rooms', '--channel', 'acme-kakao'], ['rooms', '--channel', 'acme-kakao', '--to', 'mallory'], ['history', '--channel', 'acme-kakao']]) {
      const text = await s.run(args, reader);
      expect(text.stdout).toContain('hi ␛[2J␛]0;pwned␇ one␍two \\u202eevil');
      // eslint-disable-next-line no-control-regex -- no control character may reach the terminal
      expect(text.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202e]/);
    }
    // --json keeps the text as it is, escaped by JSON
    const json = await s.run(['rooms', '--channel', 'acme-kakao', '--to', 'mallory', '--json'], reader);
    expect(json.json<{ messages: Array<{ text: string }> }>().messages[0]?.text).toBe('hi \u001b[2J\u001b]0;pwned\u0007 one\rtwo \u202eevil');
  });

  it('lists up to 1,000 rooms with --max, as the service does, and refuses more (exit 2)', async () => {
    const many = await s.run(['rooms', '--channel', 'acme-kakao', '--max', '1000', '--json'], reader);
    expect(many.code).toBe(0);
    expect(many.json()).toMatchObject({ ok: true, brand: 'acme-kakao', rooms: expect.arrayContaining([expect.objectContaining({ userKey: 'alice' })]) });
    expect((await s.run(['rooms', '--channel', 'acme-kakao', '--max', '500', '--json'], reader)).code).toBe(0);
    const tooMany = await s.run(['rooms', '--channel', 'acme-kakao', '--max', '1001', '--json'], reader);
    expect(tooMany.code).toBe(2);
    expect(tooMany.json()).toEqual({ ok: false, code: 'USAGE', error: 'Parsing --max; Expected an integer less than or equal to 1000 but received: 1001', hint: 'see --help for the flags and arguments' });
  });

  it("refuses --max above 300 for one room's messages (--to/--user) with exit 2, naming the limit", async () => {
    for (const customer of [['--to', 'alice'], ['--user', 'alice']]) {
      const run = await s.run(['rooms', '--channel', 'acme-kakao', ...customer, '--max', '301', '--json'], reader);
      expect(run.code).toBe(2);
      expect(run.json()).toEqual({ ok: false, code: 'USAGE', error: "--max with --to/--user is at most 300 (a room's messages); the room list takes up to 1000" });
    }
    const text = await s.run(['rooms', '--channel', 'acme-kakao', '--to', 'alice', '--max', '1000'], reader);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain("Error: --max with --to/--user is at most 300 (a room's messages); the room list takes up to 1000\n");
    expect((await s.run(['rooms', '--channel', 'acme-kakao', '--to', 'alice', '--max', '300', '--json'], reader)).code).toBe(0);
  });

  it('requires --channel for rooms, profile and sysmsg', async () => {
    for (const command of ['rooms', 'profile', 'sysmsg']) {
      const run = await s.run([command, '--json'], reader);
      expect(run.code).toBe(2);
      expect(run.json()).toEqual({ ok: false, error: 'missing --channel: the brand key of the channel, e.g. --channel acme-kakao', code: 'USAGE', hint: '`brandwire whoami` lists the channels' });
    }
  });

  it('lists the consultation history of every channel or one, and shows one conversation', async () => {
    const all = await s.run(['history', '--json'], reader);
    expect(all.json()).toEqual({ ok: true, channels: [{ brand: 'acme-kakao', conversations: expect.any(Array) }, { brand: 'acme-naver', conversations: [] }] });
    const alice = await s.run(['history', '--channel', 'acme-kakao', '--to', 'alice', '--json'], reader);
    const conversations = alice.json<{ channels: Array<{ conversations: Array<{ convId: string; userKey: string; ended: boolean }> }> }>().channels[0]?.conversations ?? [];
    expect(conversations).toEqual([expect.objectContaining({ userKey: 'alice', ended: false })]);
    const convId = conversations[0]?.convId as string;
    // times in the local zone, as `rooms` shows them (the service answers in its own offset, +09:00)
    const text = await s.run(['history', '--channel', 'acme-kakao'], { ...reader, env: { TZ: 'America/New_York' } });
    expect(text.stdout).toMatch(new RegExp(`│ acme-kakao +│ ${convId} +│ alice +│ in progress +│ ${year}-\\d\\d-\\d\\d [\\d:]{8} -05:00 │`));
    const conversation = await s.run(['history', '--channel', 'acme-kakao', '--conv', convId, '--json'], reader);
    expect(conversation.json()).toMatchObject({ ok: true, convId, userKey: 'alice', lines: expect.arrayContaining([{ role: 'customer', text: 'Where is my order?', at: expect.any(String) }]) });
    const lines = await s.run(['history', '--channel', 'acme-kakao', '--conv', convId], reader);
    expect(lines.stdout).toContain(`Conversation ${convId} with alice on acme-kakao (in progress):`);
    const missing = await s.run(['history', '--channel', 'acme-kakao', '--conv', 'nope', '--json'], reader);
    expect(missing.code).toBe(1);
    expect(missing.json()).toMatchObject({ ok: false, code: 'NO_CONV', status: 404 });
    // --to (and --max) narrow the list only: with --conv they would be ignored, so they are refused
    for (const extra of [['--to', 'bob'], ['--max', '5']]) {
      const both = await s.run(['history', '--channel', 'acme-kakao', '--conv', convId, ...extra, '--json'], reader);
      expect({ code: both.code, out: both.json() }).toEqual({
        code: 2,
        out: { ok: false, code: 'USAGE', error: `${extra[0]} cannot be combined with --conv: --conv shows one whole conversation, with its customer`, hint: `leave out ${extra[0]}, or --conv to list` },
      });
    }
  });

  it('finds a convId copied from the list with --conv alone, on whichever channel has it, also beside a default channel', async () => {
    await s.service.customerWrites('nadia', 'Hello from Naver', 'acme-naver');
    const config = s.configDir('history-default');
    expect((await s.run(['setup', TEST_TOKENS.reader, '--channel', 'acme-kakao', '--json'], { config })).code).toBe(0);
    const list = (await s.run(['history', '--json'], { config })).json<{ channels: Array<{ brand: string; conversations: Array<{ convId: string; userKey: string }> }> }>();
    const naver = list.channels.find((c) => c.brand === 'acme-naver')?.conversations.find((c) => c.userKey === 'nadia')?.convId as string;
    expect(naver).toEqual(expect.any(String));

    const found = await s.run(['history', '--conv', naver, '--json'], { config });
    expect(found.code).toBe(0);
    expect(found.json()).toMatchObject({ ok: true, brand: 'acme-naver', convId: naver, userKey: 'nadia', lines: expect.arrayContaining([expect.objectContaining({ role: 'customer', text: 'Hello from Naver' })]) });
    const text = await s.run(['history', '--conv', naver], reader);
    expect(text.stdout).toContain(`Conversation ${naver} with nadia on acme-naver (in progress):`);
    // --channel still narrows the search to that channel
    const elsewhere = await s.run(['history', '--channel', 'acme-kakao', '--conv', naver, '--json'], { config });
    expect({ code: elsewhere.code, out: elsewhere.json() }).toEqual({ code: 1, out: { ok: false, code: 'NO_CONV', status: 404, error: `no conversation "${naver}" on channel acme-kakao` } });

    const missing = await s.run(['history', '--conv', 'nope', '--json'], { config });
    expect({ code: missing.code, out: missing.json() }).toEqual({ code: 1, out: { ok: false, code: 'NO_CONV', status: 404, error: 'no conversation "nope" on any channel of this key (acme-kakao, acme-naver)', hint: '`brandwire history` lists the conversations with their convId' } });
  });

  it('shows the sender profile and the system messages', async () => {
    const profile = await s.run(['profile', '--channel', 'acme-kakao', '--json'], reader);
    expect(profile.json()).toMatchObject({ ok: true, brand: 'acme-kakao', profile: { name: 'Acme Kakao', brandId: 'acme', type: 'kakao', chatbotBuilder: true, status: 'active' } });
    expect((await s.run(['profile', '--channel', 'acme-kakao'], reader)).stdout).toMatch(/^channel: +acme-kakao\nname: +Acme Kakao\n/);
    const sysmsg = await s.run(['sysmsg', '--channel', 'acme-kakao', '--json'], reader);
    expect(sysmsg.json()).toMatchObject({ ok: true, brand: 'acme-kakao', messages: { greeting: expect.any(String), autoAnswers: { S1: expect.any(String) } } });
    expect((await s.run(['sysmsg', '--channel', 'acme-kakao'], reader)).stdout).toMatch(/greeting: +\S/);
    const foreign = await s.run(['profile', '--channel', 'globex-kakao', '--json'], reader);
    expect(foreign.code).toBe(1);
    expect(foreign.json()).toMatchObject({ ok: false, code: 'FORBIDDEN' });
  });

  it('colours text only on a terminal, and not with NO_COLOR', async () => {
    const env = { BRANDWIRE_ENDPOINT: s.url, BRANDWIRE_TOKEN: TEST_TOKENS.reader, BRANDWIRE_CONFIG_DIR: s.configDir('tty') };
    const tty = new Pty(`${LAUNCHER} rooms --channel acme-kakao`, env);
    expect(await tty.exit()).toBe(0);
    expect(tty.output).toContain('\u001b[1mCUSTOMER\u001b[22m');
    const noColor = new Pty(`${LAUNCHER} rooms --channel acme-kakao`, { ...env, NO_COLOR: '1' });
    expect(await noColor.exit()).toBe(0);
    expect(noColor.output).toContain('CUSTOMER');
    expect(noColor.output).not.toContain('\u001b[');
  });
});
