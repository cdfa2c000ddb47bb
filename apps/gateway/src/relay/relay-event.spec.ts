import { bodyFor, relayEventOf, teamChatLine } from './relay-event';

const consent = relayEventOf(
  { id: undefined, kind: 'personal_info', signal: { kind: 'personal_info', seq: 7, brandKey: 'acme-kakao', userKey: 'rita', timestampUnixMs: 0, nickname: 'Rita', phoneNumber: '010-1' } },
  undefined,
);

describe('relay events', () => {
  it('tells a team chat that consent was given, never the values; the CRM gets them', () => {
    expect(teamChatLine(consent)).toBe('[acme-kakao] rita agreed to share their nickname and phone number');
    for (const type of ['slack', 'teams', 'discord', 'webhook'] as const) expect(JSON.stringify(bodyFor(type, consent, false))).not.toContain('010-1');
    expect(bodyFor('webhook', consent, true)).toMatchObject({ id: 'acme-kakao:7.consent', nickname: 'Rita', phoneNumber: '010-1' });
  });

  it('tells a team chat why a consultation ended when the service ended it, and the webhook target gets the reason too', () => {
    const ended = (signal: Record<string, unknown>) => relayEventOf({ id: '5.0', kind: 'ended', signal: { kind: 'ended', seq: 5, brandKey: 'b', userKey: 'u', timestampUnixMs: 0, ...signal } }, undefined);
    expect(teamChatLine(ended({ reason: 'agent_end' }))).toBe('[b] the consultation with u ended: an agent ended it');
    expect(teamChatLine(ended({ reason: 'bot', botEvent: 'survey <x>' }))).toBe('[b] the consultation with u ended: it was handed to the chatbot (survey <x>)');
    expect(bodyFor('slack', ended({ reason: 'bot', botEvent: 'survey <x>' }), false)).toEqual({ text: '[b] the consultation with u ended: it was handed to the chatbot (survey &lt;x&gt;)' });
    expect(teamChatLine(ended({ reason: 'bot' }))).toBe('[b] the consultation with u ended: it was handed to the chatbot');
    expect(teamChatLine(ended({ reason: 'block' }))).toBe('[b] the consultation with u ended: the customer was blocked');
    expect(teamChatLine(ended({}))).toBe('[b] the consultation with u ended');
    expect(bodyFor('webhook', ended({ reason: 'bot', botEvent: 'survey' }), false)).toMatchObject({ kind: 'ended', reason: 'bot', botEvent: 'survey' });
    expect(bodyFor('webhook', ended({}), false)).not.toHaveProperty('reason');
  });

  it('shapes the message for each kind of team chat', () => {
    const message = relayEventOf({ id: '3.0', kind: 'message', signal: { seq: 3, brandKey: 'b', userKey: 'u', timestampUnixMs: 0 } }, { seq: 3, userKey: 'u', sessionId: 's', kind: 'message', text: 'hi', timestampUnixMs: 0 });
    expect(bodyFor('slack', message, false)).toEqual({ text: '[b] u: hi' });
    expect(bodyFor('teams', message, false)).toEqual({ text: '[b] u: hi' });
    expect(bodyFor('discord', message, false)).toEqual({ content: '[b] u: hi', allowed_mentions: { parse: [] } });
    expect(bodyFor('webhook', message, false)).toEqual({ id: 'b:3.0', kind: 'message', brandKey: 'b', userKey: 'u', seq: 3, at: '1970-01-01T00:00:00.000Z', text: 'hi', line: '[b] u: hi', thread: 'b:u' });
  });

  it('says so when a message\'s text could not be read, rather than relaying a stand-in as its text', () => {
    const lost = relayEventOf({ id: '9.0', kind: 'message', signal: { seq: 9, brandKey: 'b', userKey: 'u', timestampUnixMs: 0 } }, undefined);
    expect(teamChatLine(lost)).toBe("[b] u wrote a message (its text could not be read from its room, so it is not relayed)");
    expect(bodyFor('webhook', lost, true)).toMatchObject({ kind: 'message', textUnavailable: true });
    expect(bodyFor('webhook', lost, true)).not.toHaveProperty('text');
  });

  it('escapes Slack markup and turns Discord mentions off', () => {
    const sly = relayEventOf({ id: '4.0', kind: 'message', signal: { seq: 4, brandKey: 'b', userKey: 'u', timestampUnixMs: 0 } }, { seq: 4, userKey: 'u', sessionId: 's', kind: 'message', text: '<!here> @everyone & co', timestampUnixMs: 0 });
    expect(bodyFor('slack', sly, false)).toEqual({ text: '[b] u: &lt;!here&gt; @everyone &amp; co' });
    expect(bodyFor('discord', sly, false)).toEqual({ content: '[b] u: <!here\\> @everyone & co', allowed_mentions: { parse: [] } });
  });

  it("takes escape sequences and bidi overrides out of the team chat's line, and relays the text itself whole", () => {
    const text = 'pay \u001b[31mnow\u001b]8;;https://evil.example\u0007 \u202etxt.exe';
    const sly = relayEventOf({ id: '8.0', kind: 'message', signal: { seq: 8, brandKey: 'b', userKey: 'u', timestampUnixMs: 0 } }, { seq: 8, userKey: 'u', sessionId: 's', kind: 'message', text, timestampUnixMs: 0 });
    expect(bodyFor('slack', sly, false)).toEqual({ text: '[b] u: pay now txt.exe' });
    expect(bodyFor('teams', sly, false)).toEqual({ text: '[b] u: pay now txt.exe' });
    expect(bodyFor('discord', sly, false)).toMatchObject({ content: '[b] u: pay now txt.exe' });
    expect(bodyFor('webhook', sly, true)).toMatchObject({ text, line: '[b] u: pay now txt.exe' });
  });

  it('shows markdown as typed in Discord and Teams (no disguised link), and cuts a line too long for the chat', () => {
    const sly = relayEventOf({ id: '5.0', kind: 'message', signal: { seq: 5, brandKey: 'b', userKey: 'u', timestampUnixMs: 0 } }, { seq: 5, userKey: 'u', sessionId: 's', kind: 'message', text: '[your order](https://evil.example) **now**', timestampUnixMs: 0 });
    expect(bodyFor('discord', sly, false)).toMatchObject({ content: '[b] u: \\[your order\\]\\(https://evil.example\\) \\*\\*now\\*\\*' });
    expect(bodyFor('teams', sly, false)).toEqual({ text: '[b] u: \\[your order\\]\\(https://evil.example\\) \\*\\*now\\*\\*' });
    const long = relayEventOf({ id: '6.0', kind: 'message', signal: { seq: 6, brandKey: 'b', userKey: 'u', timestampUnixMs: 0 } }, { seq: 6, userKey: 'u', sessionId: 's', kind: 'message', text: 'x'.repeat(5_000), timestampUnixMs: 0 });
    const content = String(bodyFor('discord', long, false)['content']);
    expect([content.length, content.endsWith(' … (cut)')]).toEqual([2_000, true]);
    expect(String(bodyFor('slack', long, false)['text'])).toHaveLength('[b] u: '.length + 5_000);
    expect(bodyFor('webhook', long, false)['text']).toBe('x'.repeat(5_000));
  });

  it('cuts a long line between characters: never inside an emoji, after a lone escaping backslash or in an entity', () => {
    const line = (text: string) => relayEventOf({ id: '7.0', kind: 'message', signal: { seq: 7, brandKey: 'b', userKey: 'u', timestampUnixMs: 0 } }, { seq: 7, userKey: 'u', sessionId: 's', kind: 'message', text, timestampUnixMs: 0 });
    const room = 2_000 - ' … (cut)'.length - '[b] u: '.length;
    // an emoji whose second half would be the first unit past the cut
    const emoji = String(bodyFor('discord', line(`${'x'.repeat(room - 1)}\u{1F600}${'tail'.repeat(30)}`), false)['content']);
    expect(emoji).toBe(`[b] u: ${'x'.repeat(room - 1)} … (cut)`);
    // `*` escaped as `\*`, the backslash the last unit that fits
    const star = String(bodyFor('discord', line(`${'x'.repeat(room - 1)}*${'tail'.repeat(30)}`), false)['content']);
    expect(star).toBe(`[b] u: ${'x'.repeat(room - 1)} … (cut)`);
    // an escaped backslash `\\` that fits whole is kept
    const backslash = String(bodyFor('discord', line(`${'x'.repeat(room - 2)}\\${'tail'.repeat(30)}`), false)['content']);
    expect(backslash).toBe(`[b] u: ${'x'.repeat(room - 2)}\\\\ … (cut)`);
    // Slack's `&amp;` cut after its `&a`
    const slackRoom = 40_000 - ' … (cut)'.length - '[b] u: '.length;
    const entity = String(bodyFor('slack', line(`${'x'.repeat(slackRoom - 2)}&${'tail'.repeat(30)}`), false)['text']);
    expect(entity).toBe(`[b] u: ${'x'.repeat(slackRoom - 2)} … (cut)`);
  });
});
