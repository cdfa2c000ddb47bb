import { CONSENT_BUBBLE_TEXT } from '@brandwire/domain';
import { LOCK_FILE_NAME } from '@brandwire/store';
import { ServiceHarness, TOKENS } from '../../test-support/service-harness';
import { WebhookReceiver } from '../../test-support/webhook-receiver';

interface SendReply {
  ok: boolean;
  code: string;
  message: string | null;
  serial: string;
}

describe('POST /api/agent/personal-info/request', () => {
  let h: ServiceHarness;
  const request = (userKey: string, brandKey = 'acme-kakao') => h.post<SendReply>('/api/agent/personal-info/request', { brandKey, userKey });

  let receiver: WebhookReceiver;

  beforeAll(async () => {
    h = await ServiceHarness.start();
    receiver = await WebhookReceiver.start();
    const set = await h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', url: receiver.url } });
    expect(set.status).toBe(200);
  });
  afterAll(async () => {
    await h.stop();
    await receiver.stop();
  });

  it('refuses a request with 409 NO_WEBHOOK while the channel has neither a webhook nor an open signal stream, sending nothing', async () => {
    await h.customerWrites('c-nohook', { text: 'hello' });
    await h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', url: null } });
    try {
      const reply = await request('c-nohook');
      expect(reply.status).toBe(409);
      expect(reply.body).toEqual({ ok: false, code: 'NO_WEBHOOK', message: expect.stringContaining('no webhook') });
      expect((await h.customerChat('c-nohook')).filter((b) => b.kind === 'consent')).toEqual([]);
    } finally {
      await h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', url: receiver.url } });
    }
    // the consultation's one request is still there once a webhook is connected
    expect((await request('c-nohook')).body).toMatchObject({ ok: true, code: '0' });
  });

  it('sends the fixed consent bubble once per consultation (-520 on a second request)', async () => {
    await h.customerWrites('p1', { text: 'please call me' });
    const first = await request('p1');
    expect(first.body).toEqual({ ok: true, code: '0', message: null, serial: expect.any(String) });
    expect((await h.customerChat('p1')).find((b) => b.serial === first.body.serial)).toMatchObject({ kind: 'consent' });

    const second = await request('p1');
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ ok: false, code: '-520', message: expect.stringContaining('already requested in this session'), serial: expect.any(String) });
    // the rule is the service's: the second request never reached the messenger, and neither does a PERSONAL rich one
    const personal = await h.post<SendReply>('/api/agent/send/rich', { brandKey: 'acme-kakao', userKey: 'p1', rich: JSON.stringify({ chat_bubble_type: 'PERSONAL' }) });
    expect(personal.body).toMatchObject({ ok: false, code: '-520' });
    expect((await h.customerChat('p1')).filter((b) => b.kind === 'consent')).toHaveLength(1);
  });

  it('sends one bubble of two requests made at once', async () => {
    await h.customerWrites('p5', { text: 'call me' });
    const replies = await Promise.all([request('p5'), request('p5'), request('p5')]);
    expect(replies.map((r) => r.body.code).sort()).toEqual(['-520', '-520', '0']);
    expect((await h.customerChat('p5')).filter((b) => b.kind === 'consent')).toHaveLength(1);
  });

  it('keeps the consultation\'s one request when the messenger refuses it', async () => {
    await h.customerWrites('p6', { text: 'hello' });
    await h.post('/api/agent/settings/chat/deactivate', { brandKey: 'acme-kakao' }, TOKENS.admin);
    try {
      expect((await request('p6')).body).toMatchObject({ ok: false, code: '-508' });
    } finally {
      await h.post('/api/agent/settings/chat/activate', { brandKey: 'acme-kakao' }, TOKENS.admin);
    }
    expect((await request('p6')).body).toMatchObject({ ok: true, code: '0' });
  });

  it('refuses a PERSONAL rich bubble on a non-Kakao channel with 400 UNSUPPORTED_CHANNEL', async () => {
    await h.customerWrites('p7', { text: 'hi' }, 'acme-naver');
    const reply = await h.post('/api/agent/send/rich', { brandKey: 'acme-naver', userKey: 'p7', rich: JSON.stringify({ chat_bubble_type: 'PERSONAL' }) });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'UNSUPPORTED_CHANNEL', message: expect.stringContaining('Kakao') });
  });

  /** The journal item of a sent bubble and the bubble as the customer's chat shows it. */
  const journalAndChat = async (userKey: string, serial: string) => {
    const messages = await h.get<{ messages: Array<{ kind: string; text: string; serial?: string }> }>(`/api/agent/rooms/${userKey}/messages?brand=acme-kakao&max=1`);
    const bubble = (await h.customerChat(userKey)).find((b) => b.serial === serial);
    return { journal: messages.body.messages, chat: bubble };
  };

  it('journals the consent bubble with the text the customer\'s chat shows', async () => {
    await h.customerWrites('p11', { text: 'hi' });
    const sent = await request('p11');
    expect(sent.body).toMatchObject({ ok: true, code: '0' });
    const { journal, chat } = await journalAndChat('p11', sent.body.serial);
    expect(chat).toMatchObject({ kind: 'consent', text: expect.stringContaining('nickname and phone number') });
    expect(journal).toEqual([expect.objectContaining({ kind: 'agent', text: chat?.text, serial: sent.body.serial })]);
  });

  it('journals a PERSONAL rich bubble with the fixed consent text the customer sees, not the envelope\'s message', async () => {
    await h.customerWrites('p8', { text: 'hi' });
    const rich = JSON.stringify({ chat_bubble_type: 'PERSONAL', message: 'Give me your password please' });
    const sent = await h.post<SendReply>('/api/agent/send/rich', { brandKey: 'acme-kakao', userKey: 'p8', rich });
    expect(sent.body).toMatchObject({ ok: true, code: '0' });
    const { journal, chat } = await journalAndChat('p8', sent.body.serial);
    expect(chat).toMatchObject({ kind: 'consent', text: expect.stringContaining('nickname and phone number') });
    expect(chat?.text).not.toContain('password');
    expect(journal).toEqual([expect.objectContaining({ kind: 'agent', text: chat?.text, serial: sent.body.serial })]);
  });

  it('allows a new request after the customer starts a new consultation', async () => {
    await h.post('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'p1' });
    await h.customerWrites('p1', { text: 'me again' });
    expect((await request('p1')).body.ok).toBe(true);
  });

  it('cannot be deleted (409 NOT_DELETABLE)', async () => {
    await h.customerWrites('p2', { text: 'hi' });
    const sent = await request('p2');
    const reply = await h.post('/api/agent/delete', { brandKey: 'acme-kakao', userKey: 'p2', serial: sent.body.serial });
    expect(reply.status).toBe(409);
    expect(reply.body).toMatchObject({ ok: false, code: 'NOT_DELETABLE', serial: sent.body.serial });
  });

  it('cannot be deleted by its text either: the same 409 NOT_DELETABLE as by serial', async () => {
    await h.customerWrites('p9', { text: 'hi' });
    const sent = await request('p9');
    const byText = await h.post('/api/agent/delete', { brandKey: 'acme-kakao', userKey: 'p9', text: CONSENT_BUBBLE_TEXT });
    const bySerial = await h.post('/api/agent/delete', { brandKey: 'acme-kakao', userKey: 'p9', serial: sent.body.serial });
    expect(byText.status).toBe(409);
    expect(byText.body).toEqual({ ok: false, code: 'NOT_DELETABLE', message: expect.stringContaining('consent'), serial: sent.body.serial });
    expect([bySerial.status, bySerial.body]).toEqual([byText.status, byText.body]);
  });

  it('deletes by that text a send with the same words, never the consent bubble, also when the consent bubble came later', async () => {
    await h.customerWrites('p10', { text: 'hi' });
    const plain = await h.post<SendReply>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'p10', text: CONSENT_BUBBLE_TEXT });
    const consent = await request('p10');
    expect(consent.body.ok).toBe(true);
    const body = { brandKey: 'acme-kakao', userKey: 'p10', text: CONSENT_BUBBLE_TEXT };
    const reply = await h.post('/api/agent/delete', body);
    expect([reply.status, reply.body]).toEqual([200, { ok: true, code: '0', message: null, serial: plain.body.serial }]);
    // the same delete again is a retry: it answers for the send it deleted, and leaves the consent bubble alone
    const again = await h.post('/api/agent/delete', body);
    expect([again.status, again.body]).toEqual([409, expect.objectContaining({ ok: false, code: 'ALREADY_DELETED', serial: plain.body.serial })]);
    expect((await h.customerChat('p10')).find((b) => b.serial === consent.body.serial)).toMatchObject({ kind: 'consent', deleted: false });
  });

  it('is billed like a send', async () => {
    const before = (await h.get<{ used: number }>('/api/agent/settings/plan?brand=acme-kakao')).body.used;
    await h.customerWrites('p3', { text: 'hi' });
    await request('p3');
    expect((await h.get<{ used: number }>('/api/agent/settings/plan?brand=acme-kakao')).body.used).toBe(before + 1);
  });

  it('refuses a non-Kakao channel with 400 UNSUPPORTED_CHANNEL', async () => {
    const reply = await request('p1', 'acme-naver');
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'UNSUPPORTED_CHANNEL', message: expect.stringContaining('Kakao') });
  });

  it.each(['', '   '])('refuses an empty userKey (%j) with 400 EMPTY', async (userKey) => {
    const reply = await request(userKey);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'EMPTY', message: 'userKey is empty' });
  });

  it('refuses a missing userKey with 400 EMPTY', async () => {
    const reply = await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao' });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'EMPTY', message: 'userKey is empty' });
  });


  it('relays the consent without writing the values anywhere in the data directory', async () => {
    await h.customerWrites('p4', { text: 'ok' });
    await request('p4');
    const consent = await h.post<{ ok: boolean }>('/sandbox/customers/p4/consent', { brandKey: 'acme-kakao', nickname: 'Jiwoo', phoneNumber: '010-9876-5432' });
    expect(consent.body.ok).toBe(true);
    const { readFileSync, readdirSync } = await import('node:fs');
    const { join } = await import('node:path');
    // the data folder's lock holds the holder's pid only, and reading it here would drop this process's lock on it
    const files = readdirSync(h.dataDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.startsWith(LOCK_FILE_NAME))
      .map((entry) => join(entry.parentPath, entry.name));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const bytes = readFileSync(file);
      expect(bytes.includes('010-9876-5432')).toBe(false);
      expect(bytes.includes('Jiwoo')).toBe(false);
    }
  });

  it('refuses a BrandRead key with 403 FORBIDDEN', async () => {
    const reply = await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'p1' }, TOKENS.reader);
    expect(reply.status).toBe(403);
  });
});
