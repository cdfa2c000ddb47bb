import axios from 'axios';
import { SandboxHarness } from '../testing/harness';
import { HttpMessengerClient } from '../client/messenger-client';
import { KAKAO, OTHER, customerSays, serial, startHarness } from '../test-support/fixtures';

describe('sandbox partner API result codes', () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const send = (userKey: string, message: string, s = serial(), senderKey = KAKAO) =>
    h.messenger.writeText({ senderKey, userKey, serialNumber: s, message });

  it('accepts a text send in a consultation: {code: "0", message: null}', async () => {
    await customerSays(h, 'ok-user', 'hello');
    await expect(send('ok-user', 'hi there')).resolves.toEqual({ code: '0', message: null });
  });

  it('-507 for a wrong or missing partner key', async () => {
    const wrong = new HttpMessengerClient({ baseUrl: h.sandbox.url, partnerKey: 'nope' });
    try {
      await expect(wrong.writeText({ senderKey: KAKAO, userKey: 'u', serialNumber: serial(), message: 'x' })).resolves.toEqual({
        code: '-507',
        message: 'InvalidHubPartnerException: missing or wrong X-Partner-Key',
      });
    } finally {
      wrong.close();
    }
    const res = await axios.post(`${h.sandbox.url}/v1/end`, { user_key: 'u', sender_key: KAKAO });
    expect([res.status, res.data]).toEqual([200, { code: -507, message: expect.stringMatching(/^InvalidHubPartnerException/) }]);
  });

  it('-509 for malformed JSON or missing parameters', async () => {
    const headers = { 'X-Partner-Key': h.partnerKey, 'Content-Type': 'application/json' };
    const raw = { headers, transformRequest: [(d: unknown) => d] };
    const bad = await axios.post(`${h.sandbox.url}/v1/write`, '{"user_key": ', raw);
    expect([bad.status, bad.data.code, bad.data.message]).toEqual([200, -509, 'InvalidJsonException: body is not valid JSON']);
    const notObject = await axios.post(`${h.sandbox.url}/v1/end`, '[1, 2]', raw);
    expect(notObject.data).toEqual({ code: -509, message: 'InvalidJsonException: the body must be a JSON object' });
    const noType = await axios.post(`${h.sandbox.url}/v1/end`, 'user_key=u', { headers: { 'X-Partner-Key': h.partnerKey, 'Content-Type': 'text/plain' } });
    expect(noType.data).toEqual({ code: -509, message: 'InvalidJsonException: the body must be a JSON object' });
    const missing = await axios.post(`${h.sandbox.url}/v1/write`, { sender_key: KAKAO, serial_number: 'a' }, { headers });
    expect(missing.data).toEqual({ code: -509, message: 'InvalidJsonException: user_key is required' });
    const big = await axios.post(`${h.sandbox.url}/v1/write`, { message: 'x'.repeat(4_200_000) }, { headers, validateStatus: () => true });
    expect(big.data).toEqual({ code: -509, message: 'InvalidJsonException: body larger than 4 MB' });
  });

  it('-509 for a write without message_type or with an unknown one (a bad parameter, not a malformed message); nothing reaches the customer', async () => {
    await customerSays(h, 'no-type', 'hello');
    const headers = { 'X-Partner-Key': h.partnerKey };
    const write = (extra: Record<string, unknown>) =>
      axios.post(`${h.sandbox.url}/v1/write`, { sender_key: KAKAO, user_key: 'no-type', serial_number: serial(), message: 'hi', ...extra }, { headers });
    expect((await write({})).data).toEqual({ code: -509, message: 'InvalidJsonException: message_type is required' });
    expect((await write({ message_type: 'ZZ' })).data).toEqual({ code: -509, message: "InvalidJsonException: message_type 'ZZ' is not one of TX, LI, IM, FI, AU" });
    const chat = await h.control.chat('no-type', KAKAO);
    expect(chat.ok && chat.bubbles.filter((b) => b.from === 'agent')).toEqual([]);
  });

  it('-501 for an unknown sender key', async () => {
    await expect(send('u', 'x', serial(), 'f'.repeat(40))).resolves.toMatchObject({ code: '-501', message: expect.stringMatching(/^InvalidSenderException/) });
  });

  it('-503 for an empty or too long user key', async () => {
    await expect(send('', 'x')).resolves.toMatchObject({ code: '-503' });
    await expect(send('u'.repeat(21), 'x')).resolves.toMatchObject({ code: '-503', message: expect.stringMatching(/^InvalidUserKeyException/) });
  });

  it('-504 for a serial number used before on the same sender', async () => {
    await customerSays(h, 'dup-user', 'hello');
    const s = serial();
    await expect(send('dup-user', 'one', s)).resolves.toMatchObject({ code: '0' });
    await expect(send('dup-user', 'two', s)).resolves.toMatchObject({ code: '-504', message: expect.stringMatching(/^DuplicateSerialNumberException/) });
    // the check comes before the session check: a used serial to an unknown customer is still -504
    await expect(send('nobody', 'three', s)).resolves.toMatchObject({ code: '-504' });
    await expect(h.messenger.requestConsent({ senderKey: KAKAO, userKey: 'dup-user', serialNumber: s })).resolves.toMatchObject({ code: '-504' });
  });

  it('-506 for text over 1000 characters; 1000 is fine', async () => {
    await customerSays(h, 'long-user', 'hello');
    await expect(send('long-user', 'a'.repeat(1000))).resolves.toMatchObject({ code: '0' });
    await expect(send('long-user', 'a'.repeat(1001))).resolves.toEqual({
      code: '-506',
      message: 'MessageLengthOverLimitException: message is longer than 1000 characters',
    });
  });

  it('-510 for a malformed message', async () => {
    await customerSays(h, 'bad-msg', 'hello');
    await expect(send('bad-msg', '')).resolves.toEqual({ code: '-510', message: 'InvalidMessageException: message is required for message_type TX' });
    await expect(h.messenger.writeImage({ senderKey: KAKAO, userKey: 'bad-msg', serialNumber: serial(), imageUrl: 'https://evil.test/a.png' }))
      .resolves.toEqual({ code: '-510', message: 'InvalidMessageException: image_url is not an image uploaded to the messenger' });
    await expect(h.messenger.writeLinks({ senderKey: KAKAO, userKey: 'bad-msg', serialNumber: serial(), message: 'x', links: [{ type: 'WL', name: 'w' }] }))
      .resolves.toEqual({ code: '-510', message: 'InvalidMessageException: links[0].url_mobile is required for type WL' });
  });

  const agentBubbles = async (userKey: string) => {
    const chat = await h.control.chat(userKey, KAKAO);
    return chat.ok ? chat.bubbles.filter((b) => b.from === 'agent') : [];
  };

  it('-510 for a text of only whitespace, as for an empty one; nothing reaches the customer', async () => {
    await customerSays(h, 'blank-user', 'hello');
    for (const blank of ['   ', '\n\t']) {
      await expect(send('blank-user', blank)).resolves.toEqual({
        code: '-510',
        message: 'InvalidMessageException: message is required for message_type TX (it is only whitespace)',
      });
    }
    await expect(agentBubbles('blank-user')).resolves.toEqual([]);
    await expect(send('blank-user', ' ok ')).resolves.toEqual({ code: '0', message: null });
  });

  it('-510 for a rich bubble with nothing to show (no message, or only whitespace, and an empty attachment)', async () => {
    await customerSays(h, 'empty-rich', 'hello');
    const rich = (envelope: Record<string, unknown>) => h.messenger.sendRich({ senderKey: KAKAO, userKey: 'empty-rich', serialNumber: serial(), envelope });
    await expect(rich({ chat_bubble_type: 'TEXT', attachment: {} })).resolves.toEqual({
      code: '-510',
      message:
        'InvalidMessageException: there is no message and the attachment carries nothing to show (one of image, buttons, quick_replies, item, carousel, coupon is needed)',
    });
    await expect(rich({ chat_bubble_type: 'TEXT', message: ' \n ', attachment: {} })).resolves.toEqual({
      code: '-510',
      message:
        'InvalidMessageException: message is only whitespace and the attachment carries nothing to show (one of image, buttons, quick_replies, item, carousel, coupon is needed)',
    });
    await expect(rich({ chat_bubble_type: 'TEXT', message: '\t' })).resolves.toEqual({
      code: '-510',
      message: 'InvalidMessageException: message is only whitespace and there is no attachment',
    });
    await expect(agentBubbles('empty-rich')).resolves.toEqual([]);
    await expect(rich({ chat_bubble_type: 'TEXT', attachment: { quick_replies: [{ type: 'BK', name: 'Yes' }] } })).resolves.toEqual({ code: '0', message: null });
  });

  const postRich = (userKey: string, envelope: Record<string, unknown>) =>
    axios.post(`${h.sandbox.url}/v1/rich`, { user_key: userKey, sender_key: KAKAO, serial_number: serial(), ...envelope }, { headers: { 'X-Partner-Key': h.partnerKey } });

  it('-510 for a carousel card header that is not a string; nothing reaches the customer', async () => {
    await customerSays(h, 'header-user', 'hello');
    const carousel = (header: unknown) => ({ chat_bubble_type: 'CAROUSEL_FEED', carousel: { list: [{ header: 'first', message: 'a' }, { header, message: 'b' }] } });
    for (const header of [5, { text: 'Sale' }, ['Sale'], true]) {
      const res = await postRich('header-user', carousel(header));
      expect([res.status, res.data]).toEqual([200, { code: -510, message: 'InvalidMessageException: carousel.list[1].header must be a string' }]);
    }
    await expect(agentBubbles('header-user')).resolves.toEqual([]);
    await expect(postRich('header-user', carousel('Sale')).then((res) => res.data)).resolves.toEqual({ code: 0 });
  });

  it('-510 for a chat_bubble_type that is not a string, showing the value as it was given', async () => {
    await customerSays(h, 'type-user', 'hello');
    const types = 'TEXT, IMAGE, WIDE, ITEM_LIST, WIDE_ITEM_LIST, CAROUSEL_FEED, PERSONAL';
    const refusals = [];
    for (const type of [5, true, ['TEXT'], { type: 'TEXT' }, 'POSTER']) {
      const res = await postRich('type-user', { chat_bubble_type: type, message: 'x' });
      refusals.push([res.status, res.data]);
    }
    expect(refusals).toEqual([
      [200, { code: -510, message: `InvalidMessageException: chat_bubble_type 5 is not one of ${types} (a string is expected, not a number)` }],
      [200, { code: -510, message: `InvalidMessageException: chat_bubble_type true is not one of ${types} (a string is expected, not a boolean)` }],
      [200, { code: -510, message: `InvalidMessageException: chat_bubble_type is not one of ${types} (a string is expected, not a list)` }],
      [200, { code: -510, message: `InvalidMessageException: chat_bubble_type is not one of ${types} (a string is expected, not an object)` }],
      [200, { code: -510, message: `InvalidMessageException: chat_bubble_type 'POSTER' is not one of ${types}` }],
    ]);
    await expect(agentBubbles('type-user')).resolves.toEqual([]);
  });

  it('-511 for a blocked customer, and unblock restores the flow with a new session', async () => {
    await customerSays(h, 'blk-user', 'hello');
    await expect(h.messenger.block({ senderKey: KAKAO, userKey: 'blk-user' })).resolves.toEqual({ code: '0', message: null });
    await expect(send('blk-user', 'x')).resolves.toMatchObject({ code: '-511', message: expect.stringMatching(/^BlockedUserMessageException/) });
    await expect(h.control.customerMessage('blk-user', { senderKey: KAKAO, text: 'let me in' })).resolves.toMatchObject({ ok: false, code: 'BLOCKED' });
    await expect(h.messenger.unblock({ senderKey: KAKAO, userKey: 'blk-user' })).resolves.toMatchObject({ code: '0' });
    await expect(send('blk-user', 'x')).resolves.toMatchObject({ code: '-502' });
    const again = await customerSays(h, 'blk-user', 'back');
    expect(again.callbacks.map((c) => c.path)).toEqual(['/reference', '/message']);
    await expect(send('blk-user', 'welcome back')).resolves.toMatchObject({ code: '0' });
  });

  it('-502 for a customer without a consultation, and after the agent ended it', async () => {
    await expect(send('never-wrote', 'x')).resolves.toEqual({ code: '-502', message: 'InvalidSessionException: no consultation in progress with this customer' });
    await customerSays(h, 'end-user', 'hello');
    await h.messenger.end({ senderKey: KAKAO, userKey: 'end-user' });
    await expect(send('end-user', 'x')).resolves.toMatchObject({ code: '-502' });
  });

  it('-508 when chat is deactivated on the channel; the customer gets a system note and no consultation', async () => {
    await customerSays(h, 'deact-user', 'hello');
    await expect(h.messenger.deactivateChat(KAKAO)).resolves.toMatchObject({ code: '0' });
    try {
      await expect(send('deact-user', 'x')).resolves.toMatchObject({ code: '-508', message: expect.stringMatching(/^InvalidProfileChatStatusException/) });
      const refused = await h.control.customerMessage('deact-new', { senderKey: KAKAO, text: 'anyone?' });
      expect(refused).toEqual({ ok: false, code: 'CHAT_DEACTIVATED', message: expect.any(String) });
      const chat = await h.control.chat('deact-new', KAKAO);
      expect(chat.ok && chat.bubbles).toEqual([{ serial: expect.any(String), from: 'system', kind: 'notice', text: expect.any(String), deleted: false }]);
      expect(h.receiver.received.filter((c) => c.body['user_key'] === 'deact-new')).toEqual([]);
    } finally {
      await h.messenger.activateChat(KAKAO);
    }
    await expect(send('deact-user', 'back on')).resolves.toMatchObject({ code: '0' });
  });

  it('sends a consent bubble on a kakao channel, again in the same session (once per session is the service\'s rule); -510 on a non-kakao channel', async () => {
    await customerSays(h, 'consent-user', 'hello');
    const ask = () => h.messenger.requestConsent({ senderKey: KAKAO, userKey: 'consent-user', serialNumber: serial() });
    await expect(ask()).resolves.toEqual({ code: '0', message: null });
    await expect(ask()).resolves.toEqual({ code: '0', message: null });
    const personal = { chat_bubble_type: 'PERSONAL' };
    await expect(h.messenger.sendRich({ senderKey: KAKAO, userKey: 'consent-user', serialNumber: serial(), envelope: personal })).resolves.toEqual({ code: '0', message: null });
    const consentBubbles = async () => {
      const chat = await h.control.chat('consent-user', KAKAO);
      return chat.ok ? chat.bubbles.filter((b) => b.kind === 'consent').length : -1;
    };
    await expect(consentBubbles()).resolves.toBe(3);
    await customerSays(h, 'consent-other', 'hello', OTHER);
    await expect(h.messenger.requestConsent({ senderKey: OTHER, userKey: 'consent-other', serialNumber: serial() })).resolves.toEqual({
      code: '-510',
      message: "InvalidMessageException: personal-info consent needs a kakao-type channel (this one is 'line')",
    });
    // allowed again once the customer starts a new consultation
    await h.messenger.end({ senderKey: KAKAO, userKey: 'consent-user' });
    await customerSays(h, 'consent-user', 'new question');
    await expect(ask()).resolves.toMatchObject({ code: '0' });
  });

  it('checks in order: auth, json, sender, user key, serial, blocked, session, content', async () => {
    const s = serial();
    await customerSays(h, 'order-user', 'hello');
    await send('order-user', 'first', s);
    // used serial + unknown sender -> the sender is checked first
    await expect(send('order-user', '', s, 'f'.repeat(40))).resolves.toMatchObject({ code: '-501' });
    // used serial + bad user key -> user key first
    await expect(send('x'.repeat(21), '', s)).resolves.toMatchObject({ code: '-503' });
    // blocked + no session + bad content -> blocked
    await h.messenger.block({ senderKey: KAKAO, userKey: 'order-user' });
    await expect(send('order-user', '')).resolves.toMatchObject({ code: '-511' });
    await h.messenger.unblock({ senderKey: KAKAO, userKey: 'order-user' });
    // no session + bad content -> session
    await expect(send('order-user', 'a'.repeat(2000))).resolves.toMatchObject({ code: '-502' });
  });

  it('answers unknown routes with a 404 JSON body', async () => {
    const res = await axios.get(`${h.sandbox.url}/nope`, { validateStatus: () => true });
    expect([res.status, res.data]).toEqual([404, { ok: false, code: 'NO_ROUTE', message: 'no route for GET /nope' }]);
  });
});
