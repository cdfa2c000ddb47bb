import { commandOf, slackResponseUrlOf } from './command-request';

describe("the team chat's command requests", () => {
  it("reads Slack's form, Teams' activity with its mention and HTML, and the webhook team chat's JSON with its thread", () => {
    expect(commandOf('slack', Buffer.from('command=%2Fcs-close&text=acme-kakao%3Arita+Bye&user_name=jun'), 'application/x-www-form-urlencoded')).toEqual({
      command: '/cs-close',
      args: 'acme-kakao:rita Bye',
      user: 'jun',
    });
    const teams = { type: 'message', text: '<at>Brandwire</at>&nbsp;/cs-memo rita <b>VIP</b> &amp; kind', from: { name: 'Ana Lee' } };
    expect(commandOf('teams', Buffer.from(JSON.stringify(teams)), 'application/json')).toEqual({ command: '/cs-memo', args: 'rita  VIP  & kind', user: 'Ana Lee' });
    expect(commandOf('webhook', Buffer.from(JSON.stringify({ text: ' /CS-WHO ', thread: 'acme-kakao:rita' })), 'application/json')).toEqual({ command: '/cs-who', args: '', user: 'someone', thread: 'acme-kakao:rita' });
  });

  it("reads where Slack takes a later answer, and none when its form gives none", () => {
    const form = (fields: Record<string, string>): Buffer => Buffer.from(new URLSearchParams({ command: '/cs-who', text: 'rita', ...fields }).toString());
    expect(slackResponseUrlOf(form({ response_url: 'https://hooks.slack.com/commands/T1/2/abc' }))).toBe('https://hooks.slack.com/commands/T1/2/abc');
    expect(slackResponseUrlOf(form({ response_url: '' }))).toBeUndefined();
    expect(slackResponseUrlOf(form({}))).toBeUndefined();
  });

  it('says what is wrong with a request that holds no command', () => {
    expect(commandOf('slack', Buffer.from('{}'), 'application/json')).toBe('Slack sends its commands form-encoded');
    expect(commandOf('webhook', Buffer.from('not json'), 'application/json')).toBe('the body is not JSON');
    expect(commandOf('webhook', Buffer.from('[1]'), 'application/json')).toBe('text (the command typed) is missing');
    expect(commandOf('webhook', Buffer.from('{"text":"hello there"}'), 'application/json')).toBe('unknown command "hello": /cs-close, /cs-memo, /cs-who');
  });
});
