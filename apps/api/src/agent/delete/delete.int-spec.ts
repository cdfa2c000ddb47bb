import { ServiceHarness, TOKENS } from '../../test-support/service-harness';

interface DeleteReply {
  ok: boolean;
  code: string;
  message: string | null;
  serial?: string;
}

interface MessagesReply {
  messages: Array<{ seq: number; kind: string; text: string; serial?: string; deleted?: boolean }>;
}

describe('POST /api/agent/delete', () => {
  let h: ServiceHarness;
  const send = async (userKey: string, text: string) =>
    (await h.post<{ ok: boolean; serial: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey, text })).body.serial;
  const del = (body: Record<string, unknown>, token?: string) => h.post<DeleteReply>('/api/agent/delete', { brandKey: 'acme-kakao', ...body }, token);
  const messages = async (userKey: string) => (await h.get<MessagesReply>(`/api/agent/rooms/${userKey}/messages?brand=acme-kakao`)).body.messages;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('deletes by serial: placeholder in the chat, deleted:true on the item, one deleted item, count not restored', async () => {
    await h.customerWrites('d1', { text: 'hi' });
    const serial = await send('d1', 'oops, wrong customer');
    const used = (await h.get<{ used: number }>('/api/agent/settings/plan?brand=acme-kakao')).body.used;

    const reply = await del({ userKey: 'd1', serial });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ ok: true, code: '0', message: null, serial });

    const bubble = (await h.customerChat('d1')).find((b) => b.serial === serial);
    expect(bubble).toMatchObject({ deleted: true });
    expect(bubble?.text).not.toContain('wrong customer');

    const items = await messages('d1');
    expect(items[0]).toMatchObject({ kind: 'deleted', serial, text: 'Message deleted' });
    expect(items[1]).toMatchObject({ kind: 'agent', serial, deleted: true, text: 'oops, wrong customer' });
    expect(items.filter((i) => i.kind === 'deleted')).toHaveLength(1);
    expect((await h.get<{ used: number }>('/api/agent/settings/plan?brand=acme-kakao')).body.used).toBe(used);
  });

  it('answers a second delete with 409 ALREADY_DELETED and the serial', async () => {
    const serial = (await messages('d1')).find((m) => m.kind === 'deleted')?.serial;
    const reply = await del({ userKey: 'd1', serial });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ ok: false, code: 'ALREADY_DELETED', message: expect.stringContaining('already deleted'), serial });
  });

  it('answers the same delete sent four times at once with one ok and three ALREADY_DELETED', async () => {
    await h.customerWrites('d-race', { text: 'hi' });
    for (const by of ['serial', 'text'] as const) {
      const serial = await send('d-race', `race by ${by}`);
      const body = by === 'serial' ? { userKey: 'd-race', serial } : { userKey: 'd-race', text: `race by ${by}` };
      const replies = await Promise.all([0, 1, 2, 3].map(() => del(body)));
      expect(replies.map((r) => `${r.status} ${r.body.code}`).sort()).toEqual(['200 0', '409 ALREADY_DELETED', '409 ALREADY_DELETED', '409 ALREADY_DELETED']);
      // one wording, whichever of them found it deleted and when
      const refusals = replies.filter((r) => r.status === 409).map((r) => r.body.message);
      expect(refusals).toEqual(refusals.map(() => `Message ${serial} is already deleted.`));
      expect(await del(body)).toMatchObject({ status: 409, body: { message: `Message ${serial} is already deleted.` } });
      expect((await messages('d-race')).filter((m) => m.kind === 'deleted' && m.serial === serial)).toHaveLength(1);
    }
  });

  it('deletes by exact text the most recent match; the same delete again says it is deleted and leaves the older one', async () => {
    await h.customerWrites('d2', { text: 'hello' });
    const older = await send('d2', 'see you');
    const newer = await send('d2', 'see you');
    const reply = await del({ userKey: 'd2', text: 'see you' });
    expect(reply.body).toMatchObject({ ok: true, serial: newer });
    // a retry (the first answer lost on the way, say) must not take another message with the same text
    const again = await del({ userKey: 'd2', text: 'see you' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ ok: false, code: 'ALREADY_DELETED', serial: newer });
    expect((await h.customerChat('d2')).filter((b) => b.from === 'agent').map((b) => [b.serial, b.deleted])).toEqual([
      [older, false],
      [newer, true],
    ]);
    expect((await del({ userKey: 'd2', serial: older })).body).toMatchObject({ ok: true, serial: older });
    const none = await del({ userKey: 'd2', text: 'no such text' });
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ ok: false, code: 'NOT_FOUND', message: expect.stringContaining('widen withinSeconds (up to 86400) or pass serial') });
    const widest = await del({ userKey: 'd2', text: 'no such text', withinSeconds: 86400 });
    expect(widest.body).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('pass serial (a message older than 24 hours cannot be deleted)') });
    expect(widest.body.message).not.toContain('widen');
  });

  it('matches text exactly and only within the lookback', async () => {
    await h.customerWrites('d3', { text: 'hello' });
    await send('d3', 'Exact Text');
    expect((await del({ userKey: 'd3', text: 'exact text' })).body.code).toBe('NOT_FOUND');
    await h.post('/sandbox/clock', { advanceSeconds: 200 });
    expect((await del({ userKey: 'd3', text: 'Exact Text' })).body.code).toBe('NOT_FOUND');
    expect((await del({ userKey: 'd3', text: 'Exact Text', withinSeconds: 300 })).body.ok).toBe(true);
  });

  it('refuses a delete more than 24 hours after sending with 409 EXPIRED', async () => {
    await h.customerWrites('d4', { text: 'hello' });
    const serial = await send('d4', 'old news');
    await h.post('/sandbox/clock', { advanceSeconds: 24 * 3600 + 1 });
    const reply = await del({ userKey: 'd4', serial });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ ok: false, code: 'EXPIRED', message: expect.any(String), serial });
  });

  it.each([
    ['an unknown serial', { userKey: 'd1', serial: 'bw-0000000000000000-aaaaaa' }, 404, 'NOT_FOUND', undefined],
    ['both serial and text', { userKey: 'd1', serial: 'x', text: 'y' }, 400, 'BAD_REQUEST', undefined],
    ['neither serial nor text', { userKey: 'd1' }, 400, 'BAD_REQUEST', undefined],
    ['an unknown serial next to text: null', { userKey: 'd1', serial: 'bw-0000000000000000-aaaaab', text: null }, 404, 'NOT_FOUND', undefined],
    ['only nulls', { userKey: 'd1', serial: null, text: null }, 400, 'BAD_REQUEST', undefined],
    ['withinSeconds 9', { userKey: 'd1', text: 'y', withinSeconds: 9 }, 400, 'BAD_REQUEST', undefined],
    ['withinSeconds 86401', { userKey: 'd1', text: 'y', withinSeconds: 86401 }, 400, 'BAD_REQUEST', undefined],
    ['an empty serial', { userKey: 'd1', serial: '' }, 400, 'BAD_REQUEST', 'serial should not be empty'],
    ['an empty text', { userKey: 'd1', text: '' }, 400, 'BAD_REQUEST', 'text should not be empty'],
  ])('refuses %s', async (_, body, status, code, message) => {
    const reply = await del(body);
    expect(reply.status).toBe(status);
    expect(reply.body).toMatchObject({ ok: false, code, ...(message ? { message } : {}) });
  });

  it('journals a deletion made from another agent tool', async () => {
    await h.customerWrites('d5', { text: 'hello' });
    const serial = await send('d5', 'deleted elsewhere');
    const reply = await h.post<{ ok: boolean; seq: number }>('/sandbox/customers/d5/other-tool-delete', { brandKey: 'acme-kakao', serial });
    expect(reply.body.ok).toBe(true);
    const items = await messages('d5');
    expect(items[0]).toMatchObject({ kind: 'deleted', serial, seq: reply.body.seq });
    expect(items[1]).toMatchObject({ kind: 'agent', deleted: true });
  });

  it("refuses a delete of the customer's own message by its serial with 409 NOT_DELETABLE saying so", async () => {
    await h.customerWrites('d6', { text: 'my own words' });
    const own = (await h.customerChat('d6')).find((b) => b.from === 'customer')?.serial;
    expect(own).toEqual(expect.any(String));
    const reply = await del({ userKey: 'd6', serial: own });
    expect(reply.status).toBe(409);
    expect(reply.body).toEqual({ ok: false, code: 'NOT_DELETABLE', message: `Message ${String(own)} was sent by the customer d6; a customer's own messages cannot be deleted.`, serial: own });
    expect((await h.customerChat('d6')).find((b) => b.serial === own)).toMatchObject({ from: 'customer', deleted: false });
    // a serial the customer never sent nor received is still not found
    expect((await del({ userKey: 'd6', serial: 'no-such-serial' })).body).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('refuses a BrandRead key with 403 FORBIDDEN', async () => {
    const reply = await del({ userKey: 'd1', serial: 'x' }, TOKENS.reader);
    expect(reply.status).toBe(403);
  });
});
