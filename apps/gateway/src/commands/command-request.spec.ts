import { createHmac } from 'node:crypto';
import { isGenuine } from './command-auth';
import { commandOf } from './command-request';

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

  it('says what is wrong with a request that holds no command', () => {
    expect(commandOf('slack', Buffer.from('{}'), 'application/json')).toBe('Slack sends its commands form-encoded');
    expect(commandOf('webhook', Buffer.from('not json'), 'application/json')).toBe('the body is not JSON');
    expect(commandOf('webhook', Buffer.from('[1]'), 'application/json')).toBe('text (the command typed) is missing');
    expect(commandOf('webhook', Buffer.from('{"text":"hello there"}'), 'application/json')).toBe('unknown command "hello": /cs-close, /cs-memo, /cs-who');
  });

  it("checks Slack's signature and its age, Teams' HMAC and the bearer token", () => {
    const body = Buffer.from('command=%2Fcs-who&text=rita');
    const now = 1_800_000_000_000;
    const slack = { type: 'slack' as const, port: 1, secret: 'slack-secret-0000001' };
    const signed = (ts: number, secret = slack.secret) => ({
      'x-slack-request-timestamp': String(ts),
      'x-slack-signature': `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body.toString()}`).digest('hex')}`,
    });
    expect(isGenuine(slack, signed(now / 1000), body, now)).toBe(true);
    expect(isGenuine(slack, signed(now / 1000 - 301), body, now)).toBe(false);
    expect(isGenuine(slack, signed(now / 1000, 'other-secret-000000'), body, now)).toBe(false);
    expect(isGenuine(slack, signed(now / 1000), Buffer.from('command=%2Fcs-close&text=rita'), now)).toBe(false);

    const token = Buffer.from('teams-security-token-bytes').toString('base64');
    const teams = { type: 'teams' as const, port: 1, secret: token };
    const hmac = createHmac('sha256', Buffer.from(token, 'base64')).update(body).digest('base64');
    expect(isGenuine(teams, { authorization: `HMAC ${hmac}` }, body)).toBe(true);
    expect(isGenuine(teams, { authorization: `HMAC ${hmac.slice(1)}` }, body)).toBe(false);

    const webhook = { type: 'webhook' as const, port: 1, secret: 'bearer-secret-000001' };
    expect(isGenuine(webhook, { authorization: 'Bearer bearer-secret-000001' }, body)).toBe(true);
    expect(isGenuine(webhook, { authorization: 'BEARER bearer-secret-000001' }, body)).toBe(true);
    expect(isGenuine(webhook, { authorization: 'bearer-secret-000001' }, body)).toBe(false);
    expect(isGenuine(webhook, { authorization: 'Bearer bearer-secret-000002' }, body)).toBe(false);
    expect(isGenuine(webhook, {}, body)).toBe(false);
  });
});
