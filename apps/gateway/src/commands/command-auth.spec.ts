import { createHmac } from 'node:crypto';
import { isGenuine } from './command-auth';

describe('isGenuine', () => {
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
