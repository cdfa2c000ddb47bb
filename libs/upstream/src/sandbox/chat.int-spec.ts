import { must } from '../test-support/must';
import { SandboxHarness } from '../testing/harness';
import { TINY_PNG } from '../testing/images';
import { BOT, KAKAO, customerSays, serial, startHarness } from '../test-support/fixtures';
import { LONG_TEXT_CHARS } from './customer-messages';
import { DELETED_PLACEHOLDER } from './chat-view';

describe('sandbox chat view, delete, consent and taps', () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });
  beforeEach(() => h.receiver.clear());
  afterEach(async () => {
    await h.receiver.verify();
  });

  const bubbles = async (userKey: string, senderKey = KAKAO) => {
    const r = await h.control.chat(userKey, senderKey);
    if (!r.ok) throw new Error(r.message);
    return r.bubbles;
  };

  it('shows the conversation oldest first; a deleted agent bubble keeps its serial and shows a placeholder', async () => {
    await customerSays(h, 'chat-user', 'hello');
    const customerSerial = String(must(h.receiver.of('/message')[0]).body['serial_number']);
    const s1 = serial();
    const s2 = serial();
    await h.messenger.writeText({ senderKey: KAKAO, userKey: 'chat-user', serialNumber: s1, message: 'first answer' });
    await h.messenger.writeText({ senderKey: KAKAO, userKey: 'chat-user', serialNumber: s2, message: 'second answer' });
    await expect(h.messenger.deleteMessage({ senderKey: KAKAO, userKey: 'chat-user', serialNumber: s1 })).resolves.toEqual({ code: '0', message: null });
    expect(await bubbles('chat-user')).toEqual([
      { serial: customerSerial, from: 'customer', kind: 'text', text: 'hello', deleted: false },
      { serial: s1, from: 'agent', kind: 'text', text: DELETED_PLACEHOLDER, deleted: true },
      { serial: s2, from: 'agent', kind: 'text', text: 'second answer', deleted: false },
    ]);
    await expect(h.messenger.deleteMessage({ senderKey: KAKAO, userKey: 'chat-user', serialNumber: s1 })).resolves.toEqual({
      code: '-510',
      message: 'InvalidMessageException: not deletable in this state: already deleted',
    });
  });

  it('a customer text over 1,000 characters reaches the partner cut to 1,000, with the whole text at attachment.url on its own host', async () => {
    const whole = 'ㄱ'.repeat(600) + 'x'.repeat(900);
    await customerSays(h, 'long-user', whole);
    const body = must(h.receiver.of('/message')[0]).body;
    expect(body['contents']).toEqual([whole.slice(0, LONG_TEXT_CHARS)]);
    const url = String((body['attachment'] as { url?: unknown } | undefined)?.url);
    expect(new URL(url).origin).toBe(new URL(h.sandbox.url).origin);
    expect(url).toMatch(/\/texts\/\S+\.txt$/);
    await expect(h.messenger.fetchLongText(url)).resolves.toBe(whole);
    expect((await bubbles('long-user'))[0]).toMatchObject({ from: 'customer', text: whole });
    await customerSays(h, 'long-user', 'x'.repeat(LONG_TEXT_CHARS));
    expect(must(h.receiver.of('/message')[1]).body).not.toHaveProperty('attachment');
    // characters, not UTF-16 units: 1,000 emoji are not long; 1,001 are cut after the 1,000th, never inside one
    const emoji = '\u{1F600}';
    await customerSays(h, 'long-user', emoji.repeat(LONG_TEXT_CHARS));
    expect(must(h.receiver.of('/message')[2]).body).not.toHaveProperty('attachment');
    await customerSays(h, 'long-user', emoji.repeat(LONG_TEXT_CHARS + 1));
    const cut = must(h.receiver.of('/message')[3]).body;
    expect(cut['contents']).toEqual([emoji.repeat(LONG_TEXT_CHARS)]);
    expect(cut).toHaveProperty('attachment.url');
  });

  it('delete: unknown serial -> -510; consent bubble -> -510 not deletable; older than 24 h -> -510', async () => {
    await customerSays(h, 'del-user', 'hello');
    await expect(h.messenger.deleteMessage({ senderKey: KAKAO, userKey: 'del-user', serialNumber: 'no-such' })).resolves.toEqual({
      code: '-510',
      message: 'InvalidMessageException: serial_number no-such is not a message sent to this customer',
    });
    const consent = serial();
    await h.messenger.requestConsent({ senderKey: KAKAO, userKey: 'del-user', serialNumber: consent });
    await expect(h.messenger.deleteMessage({ senderKey: KAKAO, userKey: 'del-user', serialNumber: consent })).resolves.toEqual({
      code: '-510',
      message: 'InvalidMessageException: not deletable in this state: consent bubble',
    });
    const old = serial();
    await h.messenger.writeText({ senderKey: KAKAO, userKey: 'del-user', serialNumber: old, message: 'old' });
    await h.control.advanceClock(24 * 3600 + 1);
    await expect(h.messenger.deleteMessage({ senderKey: KAKAO, userKey: 'del-user', serialNumber: old })).resolves.toMatchObject({ code: '-510', message: expect.stringContaining('more than 24 hours') });
  });

  it('another agent tool deleting a bubble fires /deleted', async () => {
    await customerSays(h, 'other-tool', 'hello');
    const s = serial();
    await h.messenger.writeText({ senderKey: KAKAO, userKey: 'other-tool', serialNumber: s, message: 'oops' });
    h.receiver.expect('/deleted', (b) => b['serial_number'] === s);
    const r = await h.control.deleteByOtherTool('other-tool', { senderKey: KAKAO, serial: s });
    expect(r.ok && r.callbacks).toEqual([{ path: '/deleted', status: 200, body: expect.any(Object) }]);
    expect(must(h.receiver.of('/deleted')[0]).body).toEqual({ user_key: 'other-tool', sender_key: KAKAO, serial_number: s, time: expect.any(Number) });
    expect((await bubbles('other-tool')).find((b) => b.serial === s)).toMatchObject({ deleted: true, text: DELETED_PLACEHOLDER });
    await expect(h.control.deleteByOtherTool('other-tool', { senderKey: KAKAO, serial: s })).resolves.toMatchObject({ ok: false, code: 'NOT_DELETABLE' });
  });

  it('consent: the customer agrees to the pending bubble -> /personal_info, once', async () => {
    await customerSays(h, 'pi-user', 'hello');
    const sessionId = must(h.receiver.of('/reference')[0]).body['session_id'];
    const input = { senderKey: KAKAO, nickname: 'Jin', phoneNumber: '010-1234-5678' };
    await expect(h.control.consent('pi-user', input)).resolves.toMatchObject({ ok: false, code: 'NO_PENDING_CONSENT' });
    const s = serial();
    await h.messenger.requestConsent({ senderKey: KAKAO, userKey: 'pi-user', serialNumber: s });
    expect((await bubbles('pi-user')).at(-1)).toEqual({ serial: s, from: 'agent', kind: 'consent', text: expect.any(String), deleted: false });
    h.receiver.expect('/personal_info');
    const r = await h.control.consent('pi-user', input);
    expect(r.ok && r.callbacks.map((c) => c.path)).toEqual(['/personal_info']);
    expect(must(h.receiver.of('/personal_info')[0]).body).toEqual({
      user_key: 'pi-user',
      sender_key: KAKAO,
      session_id: sessionId,
      nickname: 'Jin',
      phone_number: '010-1234-5678',
      time: expect.any(Number),
    });
    await expect(h.control.consent('pi-user', input)).resolves.toMatchObject({ ok: false, code: 'NO_PENDING_CONSENT' });
  });

  it('taps: BK sends the label (with extra) as a customer message; WL sends nothing', async () => {
    await customerSays(h, 'tap-user', 'hello');
    const s = serial();
    await h.messenger.writeLinks({
      senderKey: KAKAO,
      userKey: 'tap-user',
      serialNumber: s,
      message: 'pick one',
      quickReplies: [{ type: 'BK', name: 'Yes please', extra: 'yes-1' }, { type: 'WL', name: 'Site', url_mobile: 'https://m.test' }],
    });
    h.receiver.expect('/message', (b) => (b['contents'] as string[])[0] === 'Yes please' && b['extra'] === 'yes-1');
    const r = await h.control.tap('tap-user', { senderKey: KAKAO, serial: s, quickReply: 0 });
    expect(r.ok && r.callbacks.map((c) => c.path)).toEqual(['/message']);
    await expect(h.control.tap('tap-user', { senderKey: KAKAO, serial: s, quickReply: 1 })).resolves.toMatchObject({ ok: false, code: 'NOT_TAPPABLE' });
    await expect(h.control.tap('tap-user', { senderKey: KAKAO, serial: s, quickReply: 5 })).resolves.toMatchObject({ ok: false, code: 'NOT_FOUND' });
  });

  it('taps: BT on a chatbot-builder channel ends the session, and the next consultation names the chat_event in last_reference', async () => {
    await customerSays(h, 'bt-user', 'hello', BOT);
    const s = serial();
    const envelope = { chat_bubble_type: 'TEXT', message: 'talk to the bot?', attachment: { quick_replies: [{ type: 'BT', name: 'Bot', chat_event: 'faq' }] } };
    await expect(h.messenger.sendRich({ senderKey: BOT, userKey: 'bt-user', serialNumber: s, envelope })).resolves.toEqual({ code: '0', message: null });
    h.receiver.expect('/expired_session', (b) => b['user_key'] === 'bt-user');
    const r = await h.control.tap('bt-user', { senderKey: BOT, serial: s, quickReply: 0 });
    expect(r.ok && r.callbacks.map((c) => c.path)).toEqual(['/expired_session']);
    await customerSays(h, 'bt-user', 'hi again', BOT);
    expect(must(h.receiver.of('/reference').at(-1)).body['last_reference']).toMatchObject({ bot: true, bot_event: 'faq' });
    // the same envelope on a channel without a chatbot builder is refused
    await customerSays(h, 'bt-user', 'hello');
    await expect(h.messenger.sendRich({ senderKey: KAKAO, userKey: 'bt-user', serialNumber: serial(), envelope })).resolves.toEqual({
      code: '-510',
      message: 'InvalidMessageException: attachment.quick_replies[0].type BT is only allowed on channels that use a chatbot builder',
    });
  });

  it('shows the quick replies (in tap order) and buttons of a bubble as the customer sees them', async () => {
    await customerSays(h, 'qr-user', 'hello');
    const rich = serial();
    const envelope = {
      chat_bubble_type: 'TEXT',
      message: 'pick',
      attachment: {
        buttons: [{ type: 'WL', name: 'Shop', url_mobile: 'https://m.shop.test', url_pc: 'https://shop.test' }, { type: 'BK', name: 'Talk' }],
        quick_replies: [{ type: 'BK', name: 'Yes', extra: 'y' }, { type: 'BK', name: 'No' }, { type: 'WL', name: 'Site', url_mobile: 'https://m.test' }],
      },
    };
    await expect(h.messenger.sendRich({ senderKey: KAKAO, userKey: 'qr-user', serialNumber: rich, envelope })).resolves.toEqual({ code: '0', message: null });
    const links = serial();
    await h.messenger.writeLinks({
      senderKey: KAKAO,
      userKey: 'qr-user',
      serialNumber: links,
      message: 'or ask here',
      links: [{ type: 'AL', name: 'App', scheme_ios: 'shop://home', url_mobile: 'https://m.shop.test/app' }],
      quickReplies: [{ type: 'BK', name: 'Agent' }],
    });
    expect((await bubbles('qr-user')).slice(-2)).toEqual([
      {
        serial: rich,
        from: 'agent',
        kind: 'rich',
        text: 'pick',
        deleted: false,
        buttons: [{ label: 'Shop', type: 'WL', url: 'https://m.shop.test' }, { label: 'Talk', type: 'BK' }],
        quickReplies: [{ label: 'Yes', type: 'BK' }, { label: 'No', type: 'BK' }, { label: 'Site', type: 'WL', url: 'https://m.test' }],
      },
      {
        serial: links,
        from: 'agent',
        kind: 'text',
        text: 'or ask here',
        deleted: false,
        buttons: [{ label: 'App', type: 'AL', url: 'https://m.shop.test/app' }],
        quickReplies: [{ label: 'Agent', type: 'BK' }],
      },
    ]);
    // the place in quickReplies is the index a tap names
    h.receiver.expect('/message', (b) => (b['contents'] as string[])[0] === 'No');
    const r = await h.control.tap('qr-user', { senderKey: KAKAO, serial: rich, quickReply: 1 });
    expect(r.ok && r.callbacks.map((c) => c.path)).toEqual(['/message']);
  });

  it('shows the cards of a carousel and the items of a list, with their images and buttons; a deleted one shows none', async () => {
    await customerSays(h, 'list-user', 'hello');
    const img = must((await h.messenger.uploadImage({ senderKey: KAKAO, data: TINY_PNG, fileName: 'a.png', imageType: 'rich' })).url);
    const carousel = serial();
    const cards = [
      { header: 'Boots', message: 'warm', attachment: { image: { img_url: img }, buttons: [{ type: 'WL', name: 'Buy', url_mobile: 'https://m.shop.test/boots' }] } },
      { header: 'Hats', buttons: [{ type: 'BK', name: 'Tell me more' }] },
    ];
    const sent = (serialNumber: string, envelope: Record<string, unknown>) => h.messenger.sendRich({ senderKey: KAKAO, userKey: 'list-user', serialNumber, envelope });
    await expect(sent(carousel, { chat_bubble_type: 'CAROUSEL_FEED', carousel: { list: cards } })).resolves.toEqual({ code: '0', message: null });
    const list = serial();
    const item = { list: [{ title: 'Scarf', img_url: img, url_mobile: 'https://m.shop.test/scarf' }, { title: 'Gloves', description: 'wool' }] };
    await expect(sent(list, { chat_bubble_type: 'WIDE_ITEM_LIST', message: 'new in', attachment: { item, buttons: [{ type: 'BK', name: 'More' }] } })).resolves.toEqual({
      code: '0',
      message: null,
    });
    expect((await bubbles('list-user')).slice(-2)).toEqual([
      {
        serial: carousel,
        from: 'agent',
        kind: 'rich',
        deleted: false,
        cards: [
          { header: 'Boots', message: 'warm', imageUrl: img, buttons: [{ label: 'Buy', type: 'WL', url: 'https://m.shop.test/boots' }] },
          { header: 'Hats', buttons: [{ label: 'Tell me more', type: 'BK' }] },
        ],
      },
      {
        serial: list,
        from: 'agent',
        kind: 'rich',
        text: 'new in',
        deleted: false,
        items: [{ title: 'Scarf', imageUrl: img, url: 'https://m.shop.test/scarf' }, { title: 'Gloves', description: 'wool' }],
        buttons: [{ label: 'More', type: 'BK' }],
      },
    ]);
    await h.messenger.deleteMessage({ senderKey: KAKAO, userKey: 'list-user', serialNumber: carousel });
    expect((await bubbles('list-user')).find((b) => b.serial === carousel)).toEqual({ serial: carousel, from: 'agent', kind: 'rich', text: DELETED_PLACEHOLDER, deleted: true });
  });

  it('rich sends show as rich bubbles; a broken rule names the field', async () => {
    await customerSays(h, 'rich-user', 'hello');
    const up = await h.messenger.uploadImage({ senderKey: KAKAO, data: TINY_PNG, fileName: 'a.png', imageType: 'rich' });
    const s = serial();
    const ok = await h.messenger.sendRich({
      senderKey: KAKAO,
      userKey: 'rich-user',
      serialNumber: s,
      envelope: { chat_bubble_type: 'IMAGE', message: 'new in', attachment: { image: { img_url: up.url } } },
    });
    expect(ok).toEqual({ code: '0', message: null });
    expect((await bubbles('rich-user')).at(-1)).toEqual({ serial: s, from: 'agent', kind: 'rich', text: 'new in', imageUrl: up.url, deleted: false });
    const qrs = Array.from({ length: 4 }, (_, i) => ({ type: 'BK', name: i === 3 ? 'fifteen chars!!' : `q${i}` }));
    await expect(
      h.messenger.sendRich({ senderKey: KAKAO, userKey: 'rich-user', serialNumber: serial(), envelope: { chat_bubble_type: 'TEXT', message: 'x', attachment: { quick_replies: qrs } } }),
    ).resolves.toEqual({ code: '-510', message: 'InvalidMessageException: attachment.quick_replies[3].name is longer than 14 characters' });
  });
});
