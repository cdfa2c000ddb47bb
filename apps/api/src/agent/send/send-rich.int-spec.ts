import { ServiceHarness, TOKENS } from '../../test-support/service-harness';

interface SendReply {
  ok: boolean;
  code: string;
  message: string | null;
  serial: string;
}

describe('POST /api/agent/send/rich', () => {
  let h: ServiceHarness;
  const rich = (userKey: string, envelope: unknown) =>
    h.post<SendReply>('/api/agent/send/rich', { brandKey: 'acme-kakao', userKey, rich: typeof envelope === 'string' ? envelope : JSON.stringify(envelope) });

  beforeAll(async () => {
    h = await ServiceHarness.start();
    await h.customerWrites('r1', { text: 'show me options' });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('delivers a TEXT bubble with quick replies, journaled with its serial', async () => {
    const reply = await rich('r1', {
      chat_bubble_type: 'TEXT',
      message: 'Pick a size',
      attachment: { quick_replies: [{ name: 'Small', type: 'BK' }, { name: 'Large', type: 'BK' }] },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true, code: '0', message: null, serial: expect.any(String) });
    expect((await h.customerChat('r1')).find((b) => b.serial === reply.body.serial)).toMatchObject({ kind: 'rich', text: 'Pick a size' });
    const items = (await h.get<{ messages: Array<{ kind: string; text: string; serial?: string }> }>('/api/agent/rooms/r1/messages?brand=acme-kakao')).body.messages;
    expect(items[0]).toEqual(expect.objectContaining({ kind: 'agent', text: 'Pick a size', serial: reply.body.serial }));
  });

  it('lets a quick reply tap send its label as the customer message (BK)', async () => {
    const sent = await rich('r1', { chat_bubble_type: 'TEXT', message: 'Colour?', attachment: { quick_replies: [{ name: 'Red', type: 'BK' }] } });
    const tap = await h.post<{ ok: boolean; seq: number }>('/sandbox/customers/r1/tap', { brandKey: 'acme-kakao', serial: sent.body.serial, quickReply: 0 });
    expect(tap.body.ok).toBe(true);
    const items = (await h.get<{ messages: Array<{ kind: string; text: string; seq: number }> }>('/api/agent/rooms/r1/messages?brand=acme-kakao')).body.messages;
    expect(items[0]).toMatchObject({ kind: 'message', text: 'Red', seq: tap.body.seq });
  });

  it('ends the consultation when a BT quick reply is tapped on a chatbot-builder channel', async () => {
    await h.customerWrites('r2', { text: 'hi' });
    const sent = await rich('r2', { chat_bubble_type: 'TEXT', message: 'Talk to the bot?', attachment: { quick_replies: [{ name: 'Bot', type: 'BT', chat_event: 'bot_menu' }] } });
    expect(sent.body.ok).toBe(true);
    const tap = await h.post<{ ok: boolean }>('/sandbox/customers/r2/tap', { brandKey: 'acme-kakao', serial: sent.body.serial, quickReply: 0 });
    expect(tap.body.ok).toBe(true);
    const items = (await h.get<{ messages: Array<{ kind: string; text: string }> }>('/api/agent/rooms/r2/messages?brand=acme-kakao')).body.messages;
    // the messenger's end callback names no cause: a customer's tap ends it as any end the service did not ask for
    expect(items[0]).toMatchObject({ kind: 'ended', text: 'Consultation ended' });
    expect((await h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'r2', text: 'x' })).body.code).toBe('-502');
  });

  it.each([
    ['invalid JSON', '{"chat_bubble_type": "TEXT",', 'BAD_RICH', 'not valid JSON'],
    ['a JSON array', '[1]', 'BAD_RICH', 'object'],
    ['user_key inside', { chat_bubble_type: 'TEXT', message: 'x', user_key: 'u' }, 'BAD_RICH', 'user_key'],
    ['sender_key inside', { chat_bubble_type: 'TEXT', message: 'x', sender_key: 's' }, 'BAD_RICH', 'sender_key'],
    ['serial_number inside', { chat_bubble_type: 'TEXT', message: 'x', serial_number: '1' }, 'BAD_RICH', 'serial_number'],
    ['no chat_bubble_type', { message: 'x' }, 'BAD_RICH', 'rich.chat_bubble_type is required'],
    ['a number for chat_bubble_type', { chat_bubble_type: 5, message: 'x' }, 'BAD_RICH', 'rich.chat_bubble_type must be one of TEXT, IMAGE, WIDE, ITEM_LIST, WIDE_ITEM_LIST, CAROUSEL_FEED or PERSONAL (a string), not a number'],
    ['MSGR_CERT', { chat_bubble_type: 'MSGR_CERT', message: 'verify' }, 'UNSUPPORTED_BUBBLE', 'MSGR_CERT'],
    ['a lone surrogate in the message', '{"chat_bubble_type":"TEXT","message":"\\ud800"}', 'BAD_RICH', 'rich.message is not well-formed Unicode'],
    ['a lone surrogate in a quick reply', '{"chat_bubble_type":"TEXT","message":"x","attachment":{"quick_replies":[{"name":"\\udc00","type":"BK"}]}}', 'BAD_RICH', 'rich.attachment.quick_replies.0.name is not well-formed Unicode'],
    ['a __proto__ key', '{"chat_bubble_type":"TEXT","message":"x","attachment":{"__proto__":{}}}', 'BAD_RICH', 'property rich.attachment.__proto__ should not exist'],
    ['nesting 5,000 levels deep', `{"chat_bubble_type":"TEXT","message":"x","attachment":${'['.repeat(5000)}${']'.repeat(5000)}}`, 'BAD_RICH', 'deeper than 64 levels'],
  ])('refuses %s with 400 and a clear code', async (_, envelope, code, fragment) => {
    const reply = await rich('r1', envelope);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code, message: expect.stringContaining(fragment) });
  });

  it.each([
    ['TEXT over 1,000 characters', { chat_bubble_type: 'TEXT', message: 'x'.repeat(1001) }, 'message'],
    ['WIDE over 76 characters', { chat_bubble_type: 'WIDE', message: 'x'.repeat(77), attachment: { image: { img_url: 'https://example.com/a.png' } } }, 'message'],
    ['11 quick replies', { chat_bubble_type: 'TEXT', message: 'x', attachment: { quick_replies: Array.from({ length: 11 }, () => ({ name: 'a', type: 'BK' })) } }, 'quick_replies'],
    ['a quick reply label over 14', { chat_bubble_type: 'TEXT', message: 'x', attachment: { quick_replies: [{ name: 'x'.repeat(15), type: 'BK' }] } }, 'name'],
    ['a WL quick reply without url_mobile', { chat_bubble_type: 'TEXT', message: 'x', attachment: { quick_replies: [{ name: 'Go', type: 'WL' }] } }, 'url_mobile'],
    ['a carousel of one card', { chat_bubble_type: 'CAROUSEL_FEED', carousel: { list: [{}] } }, 'carousel'],
    ['an ITEM_LIST item that is not an object', { chat_bubble_type: 'ITEM_LIST', message: 'x', attachment: { item: 'x' } }, 'attachment.item must be an object'],
    ['a quick reply url_target other than out', { chat_bubble_type: 'TEXT', message: 'x', attachment: { quick_replies: [{ name: 'Go', type: 'WL', url_mobile: 'https://m.example.com', url_target: 'in' }] } }, "url_target 'in' is not allowed: the only value is out"],
    ['auto_answer with IMAGE', { chat_bubble_type: 'IMAGE', auto_answer: 'S1', attachment: { image: { img_url: 'https://example.com/a.png' } } }, 'auto_answer'],
  ])('passes the messenger rejection of %s through as HTTP 200, ok:false, with the rule named', async (_, envelope, fragment) => {
    const reply = await rich('r1', envelope);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ ok: false, code: expect.stringMatching(/^-5\d\d$/), message: expect.stringContaining(fragment), serial: expect.any(String) });
  });

  it('refuses a BrandRead key with 403 FORBIDDEN', async () => {
    const reply = await h.post('/api/agent/send/rich', { brandKey: 'acme-kakao', userKey: 'r1', rich: '{}' }, TOKENS.reader);
    expect(reply.status).toBe(403);
  });
});
