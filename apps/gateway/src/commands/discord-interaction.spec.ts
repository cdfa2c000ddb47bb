import { DISCORD_PONG, discordAnswer, discordInteractionOf } from './discord-interaction';

const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
const command = (name: string, options: Array<{ name: string; value: unknown }>, who: object = { member: { user: { id: '1', username: 'jun' } } }) =>
  json({ type: 2, id: '1', application_id: '2', token: 't', data: { id: '3', name, type: 1, options: options.map((o) => ({ ...o, type: 3 })) }, ...who });

/** where the answer of a deferred interaction goes: its application and token, as `command` gives them */
const later = { applicationId: '2', token: 't' };

describe("Discord's interactions", () => {
  it("reads its PING and its slash commands: the name without the slash, the customer and the rest from the options, the user from member.user or user", () => {
    expect(discordInteractionOf(json({ type: 1, id: '1', application_id: '2' }))).toEqual({ kind: 'ping' });
    expect(discordInteractionOf(command('cs-who', [{ name: 'customer', value: 'acme-kakao:rita' }]))).toEqual({
      kind: 'command',
      later,
      request: { command: '/cs-who', customer: 'acme-kakao:rita', args: '', user: 'jun' },
    });
    expect(discordInteractionOf(command('cs-memo', [{ name: 'memo', value: ' VIP: calls after 6 pm ' }, { name: 'customer', value: 'rita' }]))).toEqual({
      kind: 'command',
      later,
      request: { command: '/cs-memo', customer: 'rita', args: 'VIP: calls after 6 pm', user: 'jun' },
    });
    // in a direct message the user is `user`; the greeting is optional
    expect(discordInteractionOf(command('CS-CLOSE', [{ name: 'customer', value: 'rita' }], { user: { username: 'ana' } }))).toEqual({
      kind: 'command',
      later,
      request: { command: '/cs-close', customer: 'rita', args: '', user: 'ana' },
    });
    expect(discordInteractionOf(command('cs-close', [{ name: 'customer', value: 'rita' }, { name: 'greeting', value: 'Bye!' }], {}))).toEqual({
      kind: 'command',
      later,
      request: { command: '/cs-close', customer: 'rita', args: 'Bye!', user: 'someone' },
    });
    // without a customer the command's usage is answered: the memo's first word is never taken for one
    expect(discordInteractionOf(command('cs-memo', [{ name: 'memo', value: 'rita is kind' }]))).toEqual({ kind: 'command', later, request: { command: '/cs-memo', args: '', user: 'jun' } });
    expect(discordInteractionOf(command('cs-who', [{ name: 'customer', value: 'rita' }, { name: 'greeting', value: 'ignored' }]))).toMatchObject({ request: { customer: 'rita', args: '' } });
    // without its token an interaction can be answered at once only
    expect(discordInteractionOf(json({ type: 2, id: '1', application_id: '2', data: { name: 'cs-who', options: [] } }))).toMatchObject({ kind: 'command', later: undefined });
  });

  it('keeps the customer option apart from the memo or greeting: a customer holding white space is never split into a customer and text', () => {
    expect(discordInteractionOf(command('cs-close', [{ name: 'customer', value: ' kim lee ' }, { name: 'greeting', value: 'Bye!' }]))).toEqual({
      kind: 'command',
      later,
      request: { command: '/cs-close', customer: 'kim lee', args: 'Bye!', user: 'jun' },
    });
    expect(discordInteractionOf(command('cs-memo', [{ name: 'customer', value: 'kim lee' }, { name: 'memo', value: 'asked twice' }]))).toMatchObject({
      request: { customer: 'kim lee', args: 'asked twice' },
    });
    // a customer option of white space only is none: the usage is answered
    expect(discordInteractionOf(command('cs-who', [{ name: 'customer', value: '   ' }]))).toEqual({ kind: 'command', later, request: { command: '/cs-who', args: '', user: 'jun' } });
  });

  it('answers an unknown command in Discord, and refuses what is no interaction the gateway takes', () => {
    expect(discordInteractionOf(command('cs-bogus', []))).toEqual({ kind: 'command', later, request: 'unknown command "/cs-bogus": /cs-close, /cs-memo, /cs-who' });
    expect(discordInteractionOf(Buffer.from('not json'))).toEqual({ kind: 'refused', why: 'the body is not JSON' });
    expect(discordInteractionOf(json([1]))).toEqual({ kind: 'refused', why: 'the body is not a JSON object' });
    expect(discordInteractionOf(json({ type: 3, data: { custom_id: 'x' } }))).toEqual({
      kind: 'refused',
      why: "the gateway takes Discord's PING (1) and slash commands (2), not interactions of type 3",
    });
    expect(discordInteractionOf(json({ type: 2, data: {} }))).toEqual({ kind: 'refused', why: 'data.name (the command) is missing' });
  });

  it('answers PING with PONG, and a command with a message whose Markdown is shown as written, mentioning no one, for the asker only when told', () => {
    expect(DISCORD_PONG).toEqual({ type: 1 });
    expect(discordAnswer('rita (acme-kakao): "[your order](https://evil.example) **now** @everyone"', true)).toEqual({
      type: 4,
      data: { content: 'rita \\(acme-kakao\\): "\\[your order\\]\\(https://evil.example\\) \\*\\*now\\*\\* @everyone"', allowed_mentions: { parse: [] }, flags: 64 },
    });
    expect(discordAnswer('memo kept for rita', false)).toEqual({ type: 4, data: { content: 'memo kept for rita', allowed_mentions: { parse: [] } } });
    const content = String(discordAnswer('m'.repeat(2_500), false).data['content']);
    expect([content.length, content.endsWith(' … (cut)')]).toEqual([2_000, true]);
  });

  it('cuts a long answer between characters, never in a surrogate pair nor after an escaping backslash, and within 2,000 UTF-16 units', () => {
    const contentOf = (written: string): string => String(discordAnswer(written, false).data['content']);
    const emoji = '\u{1F600}';
    // 1,992 units are left before the marker: the emoji at 1,991 would be split in two
    expect(contentOf(`${'m'.repeat(1_991)}${emoji.repeat(10)}`)).toBe(`${'m'.repeat(1_991)} … (cut)`);
    expect(contentOf(`${'m'.repeat(1_990)}${emoji.repeat(10)}`)).toBe(`${'m'.repeat(1_990)}${emoji} … (cut)`);
    // the escaped `*` at 1,991 would leave its backslash alone
    expect(contentOf(`${'m'.repeat(1_991)}${'*'.repeat(10)}`)).toBe(`${'m'.repeat(1_991)} … (cut)`);
    // escaping doubles each of these: the text is cut so its escaped form fits with the marker
    expect(contentOf('*'.repeat(1_500))).toBe(`${'\\*'.repeat(996)} … (cut)`);
    expect(contentOf('\\'.repeat(1_001))).toBe(`${'\\\\'.repeat(996)} … (cut)`);
    // a text whose escaped form just fits is not cut
    expect(contentOf('*'.repeat(1_000))).toBe('\\*'.repeat(1_000));
  });
});
