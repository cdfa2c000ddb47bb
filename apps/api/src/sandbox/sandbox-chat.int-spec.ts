import { ServiceHarness } from '../test-support/service-harness';

interface ChatReply {
  ok: boolean;
  bubbles: Array<Record<string, unknown> & { serial: string }>;
}

describe('GET /sandbox/customers/{userKey}/chat', () => {
  let h: ServiceHarness;
  const sendRich = async (userKey: string, envelope: unknown) => {
    const reply = await h.post<{ ok: boolean; serial: string }>('/api/agent/send/rich', { brandKey: 'acme-kakao', userKey, rich: JSON.stringify(envelope) });
    expect([reply.status, reply.body.ok]).toEqual([200, true]);
    return reply.body.serial;
  };
  const bubbleOf = async (userKey: string, serial: string) => {
    const chat = await h.get<ChatReply>(`/sandbox/customers/${userKey}/chat?brand=acme-kakao`);
    expect([chat.status, chat.body.ok]).toEqual([200, true]);
    return chat.body.bubbles.find((b) => b.serial === serial);
  };

  beforeAll(async () => {
    h = await ServiceHarness.start();
    await h.customerWrites('chat-view', { text: 'what do you have?' });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('shows the quick replies a tap names by index, and the buttons of the bubble', async () => {
    const serial = await sendRich('chat-view', {
      chat_bubble_type: 'TEXT',
      message: 'pick',
      attachment: {
        buttons: [{ type: 'WL', name: 'Shop', url_mobile: 'https://m.shop.test' }],
        quick_replies: [{ type: 'BK', name: 'Small' }, { type: 'BK', name: 'Medium' }, { type: 'BK', name: 'Large' }],
      },
    });
    expect(await bubbleOf('chat-view', serial)).toEqual({
      serial,
      from: 'agent',
      kind: 'rich',
      text: 'pick',
      deleted: false,
      buttons: [{ label: 'Shop', type: 'WL', url: 'https://m.shop.test' }],
      quickReplies: [{ label: 'Small', type: 'BK' }, { label: 'Medium', type: 'BK' }, { label: 'Large', type: 'BK' }],
    });
    const tap = await h.post<{ ok: boolean; seq: number }>('/sandbox/customers/chat-view/tap', { brandKey: 'acme-kakao', serial, quickReply: 2 });
    expect(tap.body.ok).toBe(true);
    const items = (await h.get<{ messages: Array<{ kind: string; text: string }> }>('/api/agent/rooms/chat-view/messages?brand=acme-kakao')).body.messages;
    expect(items[0]).toMatchObject({ kind: 'message', text: 'Large' });
  });

  it('shows the cards of a carousel', async () => {
    const serial = await sendRich('chat-view', {
      chat_bubble_type: 'CAROUSEL_FEED',
      carousel: { list: [{ header: 'Boots', message: 'warm', buttons: [{ type: 'BK', name: 'More' }] }, { header: 'Hats' }] },
    });
    expect(await bubbleOf('chat-view', serial)).toEqual({
      serial,
      from: 'agent',
      kind: 'rich',
      deleted: false,
      cards: [{ header: 'Boots', message: 'warm', buttons: [{ label: 'More', type: 'BK' }] }, { header: 'Hats' }],
    });
  });
});
