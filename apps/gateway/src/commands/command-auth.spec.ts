import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
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

  it("checks Discord's Ed25519 signature of the timestamp and the body with the application's public key, and its age", () => {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const hex = Buffer.from(String(publicKey.export({ format: 'jwk' }).x), 'base64url').toString('hex');
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
    const discord = { type: 'discord' as const, port: 1, secret: hex };
    const body = Buffer.from('{"type":2,"data":{"name":"cs-who","options":[{"name":"customer","type":3,"value":"rita"}]}}');
    const now = 1_800_000_000_000;
    const signed = (ts: number, key = privateKey, signedBody = body) => ({
      'x-signature-timestamp': String(ts),
      'x-signature-ed25519': sign(null, Buffer.concat([Buffer.from(String(ts)), signedBody]), key).toString('hex'),
    });
    expect(isGenuine(discord, signed(now / 1000), body, now)).toBe(true);
    // hex in capitals is the same signature
    const upper = signed(now / 1000);
    expect(isGenuine(discord, { ...upper, 'x-signature-ed25519': upper['x-signature-ed25519'].toUpperCase() }, body, now)).toBe(true);
    expect(isGenuine(discord, signed(now / 1000 - 301), body, now)).toBe(false);
    expect(isGenuine(discord, signed(now / 1000 + 301), body, now)).toBe(false);
    expect(isGenuine(discord, signed(now / 1000, generateKeyPairSync('ed25519').privateKey), body, now)).toBe(false);
    expect(isGenuine(discord, signed(now / 1000), Buffer.from(body.toString().replace('rita', 'kim')), now)).toBe(false);
    // the timestamp is signed: another one with the same signature is refused
    expect(isGenuine(discord, { ...signed(now / 1000), 'x-signature-timestamp': String(now / 1000 - 1) }, body, now)).toBe(false);
    // Discord's check of the endpoint: a signature that is wrong, cut, not hex, or missing
    const good = signed(now / 1000)['x-signature-ed25519'];
    const flipped = `${good.slice(0, -1)}${good.endsWith('0') ? '1' : '0'}`;
    for (const bad of [flipped, good.slice(0, -2), `${good.slice(0, -2)}zz`, ''])
      expect(isGenuine(discord, { 'x-signature-timestamp': String(now / 1000), 'x-signature-ed25519': bad }, body, now)).toBe(false);
    expect(isGenuine(discord, { 'x-signature-ed25519': good }, body, now)).toBe(false);
  });
});
