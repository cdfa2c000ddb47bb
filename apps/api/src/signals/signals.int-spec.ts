import { ServiceHarness, TOKENS } from '../test-support/service-harness';
import { WebhookReceiver } from '../test-support/webhook-receiver';
import { verifyWebhook } from './webhook-signature';

interface WebhookView {
  ok: boolean;
  url: string | null;
  secret?: string;
}

describe('signals to the client', () => {
  let h: ServiceHarness;
  let receiver: WebhookReceiver;
  let secret: string;
  const kinds = (r: WebhookReceiver, userKey: string) => r.accepted.filter((d) => d.json['userKey'] === userKey).map((d) => d.json['kind']);

  beforeAll(async () => {
    h = await ServiceHarness.start();
    receiver = await WebhookReceiver.start();
    const set = await h.request<WebhookView>('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', url: receiver.url } });
    expect(set.status).toBe(200);
    secret = set.body.secret ?? '';
    expect(secret).toMatch(/^whsec_/);
  });
  afterAll(async () => {
    await h.stop();
    await receiver.stop();
  });

  it('delivers reference and message signals, content-free, signed by the Standard Webhooks scheme', async () => {
    const seq = await h.customerWrites('s1', { text: 'my card number is 1234', reference: { extra: 'campaign-7' } });
    const accepted = await receiver.waitFor((a) => a.filter((d) => d.json['userKey'] === 's1').length >= 2);
    const [reference, message] = accepted.filter((d) => d.json['userKey'] === 's1');
    expect(reference?.json).toEqual({
      kind: 'reference',
      seq: seq - 1,
      brandKey: 'acme-kakao',
      userKey: 's1',
      timestampUnixMs: expect.any(Number),
      reference: { extra: 'campaign-7' },
      lastReference: null,
    });
    expect(message?.json).toEqual({ kind: 'message', seq, brandKey: 'acme-kakao', userKey: 's1', timestampUnixMs: expect.any(Number) });
    expect(message?.body).not.toContain('1234');
    for (const delivery of [reference, message]) {
      const h2 = delivery?.headers ?? {};
      expect(h2['webhook-id']).toMatch(/^sig_acme-kakao_\d+_0$/);
      expect(verifyWebhook(secret, String(h2['webhook-id']), Number(h2['webhook-timestamp']), delivery?.body ?? '', String(h2['webhook-signature']))).toBe(true);
    }
  });

  it('delivers two agent signals per send, acceptance first, both with the serial and the seq of the journal item', async () => {
    const sent = await h.post<{ serial: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 's1', text: 'hello' });
    await receiver.waitFor((a) => a.some((d) => d.json['kind'] === 'agent' && d.json['phase'] === undefined));
    const agent = receiver.accepted.filter((d) => d.json['kind'] === 'agent');
    const item = (await h.get<{ messages: Array<{ seq: number; kind: string }> }>('/api/agent/rooms/s1/messages?brand=acme-kakao')).body.messages[0];
    expect(agent.map((d) => [d.json['phase'] ?? 'journal', d.json['serial'], d.json['seq']])).toEqual([
      ['accepted', sent.body.serial, item?.seq],
      ['journal', sent.body.serial, item?.seq],
    ]);
  });

  it('delivers a deleted signal with the serial of the deleted bubble', async () => {
    const sent = await h.post<{ serial: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 's1', text: 'oops' });
    await h.post('/api/agent/delete', { brandKey: 'acme-kakao', userKey: 's1', serial: sent.body.serial });
    const accepted = await receiver.waitFor((a) => a.some((d) => d.json['kind'] === 'deleted'));
    expect(accepted.find((d) => d.json['kind'] === 'deleted')?.json['serial']).toBe(sent.body.serial);
  });

  it('tells on ended why the service ended the consultation (a hand-off names its bot event); an end the customer made says nothing', async () => {
    const endedOf = async (userKey: string) => (await receiver.waitFor((a) => a.some((d) => d.json['kind'] === 'ended' && d.json['userKey'] === userKey))).find((d) => d.json['kind'] === 'ended' && d.json['userKey'] === userKey)?.json;
    for (const userKey of ['r-bot', 'r-agent', 'r-block', 'r-left']) await h.customerWrites(userKey, { text: 'hello' });
    await h.post('/api/agent/end-with-bot', { brandKey: 'acme-kakao', userKey: 'r-bot', botEvent: 'welcome' });
    await h.post('/api/agent/end', { brandKey: 'acme-kakao', userKey: 'r-agent' });
    await h.post('/api/agent/block', { brandKey: 'acme-kakao', userKey: 'r-block' });
    await h.post('/sandbox/customers/r-left/end', { brandKey: 'acme-kakao' });
    expect(await endedOf('r-bot')).toMatchObject({ reason: 'bot', botEvent: 'welcome' });
    expect(await endedOf('r-agent')).toMatchObject({ reason: 'agent_end' });
    expect(await endedOf('r-block')).toMatchObject({ reason: 'block' });
    expect(await endedOf('r-left')).not.toHaveProperty('reason');
  });

  it('relays the consent values once, and never with a webhook-id that could be fetched again', async () => {
    await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 's1' });
    await h.post('/sandbox/customers/s1/consent', { brandKey: 'acme-kakao', nickname: 'Minji', phoneNumber: '010-2222-3333' });
    const accepted = await receiver.waitFor((a) => a.some((d) => d.json['kind'] === 'personal_info'));
    expect(accepted.filter((d) => d.json['kind'] === 'personal_info').map((d) => d.json)).toEqual([
      { kind: 'personal_info', seq: expect.any(Number), brandKey: 'acme-kakao', userKey: 's1', timestampUnixMs: expect.any(Number), nickname: 'Minji', phoneNumber: '010-2222-3333' },
    ]);
    const catchUp = await h.get<{ signals: Array<{ signal: { kind: string } }> }>('/api/agent/signals?brand=acme-kakao&max=1000');
    expect(catchUp.body.signals.some((s) => s.signal.kind === 'personal_info')).toBe(false);
  });

  it("delivers the consent values after the customer's earlier signals that wait for a retry, not ahead of them", async () => {
    receiver.status = 503;
    try {
      await h.customerWrites('s-order', { text: 'you may call me' });
      expect((await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 's-order' })).body).toMatchObject({ ok: true });
      await h.post('/sandbox/customers/s-order/consent', { brandKey: 'acme-kakao', nickname: 'Jun', phoneNumber: '010-7777-8888' });
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    } finally {
      receiver.status = 200;
    }
    await receiver.waitFor(() => kinds(receiver, 's-order').includes('personal_info'), 20_000);
    expect(kinds(receiver, 's-order')).toEqual(['reference', 'message', 'agent', 'agent', 'personal_info']);
    // not even tried while the earlier ones were failing
    const attempts = receiver.received.filter((d) => d.json['userKey'] === 's-order');
    const firstTry = attempts.findIndex((d) => d.json['kind'] === 'personal_info');
    const lastEarlier = attempts.map((d) => d.json['kind']).lastIndexOf('agent');
    expect(firstTry).toBeGreaterThan(lastEarlier);
  });

  it('keeps every signal for a receiver that is down, and delivers all of them in order when it is back', async () => {
    await receiver.stop();
    await h.customerWrites('s2', { text: 'one' });
    for (const text of ['two', 'three', 'four']) await h.customerWrites('s2', { text });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await receiver.listen();
    await receiver.waitFor((a) => a.filter((d) => d.json['userKey'] === 's2').length >= 5, 20_000);
    expect(kinds(receiver, 's2')).toEqual(['reference', 'message', 'message', 'message', 'message']);
    const seqs = receiver.accepted.filter((d) => d.json['userKey'] === 's2').map((d) => Number(d.json['seq']));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it('retries a receiver that answers 500, with the same webhook-id', async () => {
    receiver.status = 500;
    await h.customerWrites('s3', { text: 'retry me' });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    receiver.status = 200;
    await receiver.waitFor((a) => a.filter((d) => d.json['userKey'] === 's3').length >= 2, 20_000);
    const attempts = receiver.received.filter((d) => d.json['userKey'] === 's3' && d.json['kind'] === 'reference');
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(attempts.map((d) => d.headers['webhook-id'])).size).toBe(1);
  });

  it('retries a failing receiver after 1 s, then 2 s (±20 %), never sooner, and delivers the backlog when it answers', async () => {
    receiver.status = 503;
    await h.customerWrites('s4', { text: 'one' });
    const attemptsOf = () => receiver.received.filter((d) => d.json['userKey'] === 's4' && d.json['kind'] === 'reference');
    const deadline = Date.now() + 15_000;
    while (attemptsOf().length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    receiver.status = 200;
    const attempts = attemptsOf();
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    expect(new Set(attempts.map((d) => d.headers['webhook-id'])).size).toBe(1);
    const [first, second, third] = attempts.map((d) => d.atMs);
    const gaps = [Number(second) - Number(first), Number(third) - Number(second)];
    // 1 s and 2 s with ±20 % jitter; a round may start up to a poll (250 ms) after the signal is due
    expect(gaps[0]).toBeGreaterThanOrEqual(800);
    expect(gaps[0]).toBeLessThanOrEqual(1_200 + 500);
    expect(gaps[1]).toBeGreaterThanOrEqual(1_600);
    expect(gaps[1]).toBeLessThanOrEqual(2_400 + 500);
    await receiver.waitFor((a) => kinds(receiver, 's4').length >= 2 && a.length > 0, 20_000);
    expect(kinds(receiver, 's4')).toEqual(['reference', 'message']);
  });

  it('counts the back-off from the failed answer, so a slow failing receiver also gets its pause', async () => {
    receiver.status = 503;
    receiver.answerDelayMs = 1_000;
    try {
      await h.customerWrites('s5', { text: 'slow' });
      const attemptsOf = () => receiver.received.filter((d) => d.json['userKey'] === 's5' && d.json['kind'] === 'reference');
      const deadline = Date.now() + 15_000;
      while (attemptsOf().length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      const attempts = attemptsOf();
      expect(attempts.length).toBeGreaterThanOrEqual(3);
      // 1 s, then 2 s (±20 %) after each 503 came back; after the attempt started (1 s earlier) they would be at most 0.2 s and 1.4 s
      const pauses = [1, 2].map((i) => Number(attempts[i]?.atMs) - Number(attempts[i - 1]?.answeredAtMs));
      expect(pauses[0]).toBeGreaterThanOrEqual(800);
      expect(pauses[1]).toBeGreaterThanOrEqual(1_600);
    } finally {
      receiver.status = 200;
      receiver.answerDelayMs = 0;
    }
    await receiver.waitFor(() => kinds(receiver, 's5').length >= 2, 20_000);
  });

  it('serves the same payloads for catch-up after a seq', async () => {
    const all = await h.get<{ ok: boolean; signals: Array<{ id: string; signal: Record<string, unknown> }>; next: string }>('/api/agent/signals?brand=acme-kakao&max=1000', TOKENS.reader);
    expect(all.body.ok).toBe(true);
    const delivered = receiver.accepted.filter((d) => d.json['kind'] !== 'personal_info').map((d) => d.json);
    for (const payload of delivered) expect(all.body.signals.map((s) => s.signal)).toContainEqual(payload);
    const middle = all.body.signals[3];
    const rest = await h.get<{ signals: Array<{ id: string }> }>(`/api/agent/signals?brand=acme-kakao&after=${middle?.id}&max=1000`);
    expect(rest.body.signals.map((s) => s.id)).toEqual(all.body.signals.slice(4).map((s) => s.id));
  });

  it('shows the secret to Admin keys only, the URL whole to BrandWrite keys and up, and lets only Admin keys change the URL', async () => {
    const read = await h.get<WebhookView>('/api/agent/settings/webhook?brand=acme-kakao', TOKENS.writer);
    expect(read.body).toEqual({ ok: true, brand: 'acme-kakao', url: receiver.url });
    const readOnly = await h.get<WebhookView>('/api/agent/settings/webhook?brand=acme-kakao', TOKENS.reader);
    expect(readOnly.body).toEqual({ ok: true, brand: 'acme-kakao', url: `${new URL(receiver.url).origin}/…` });
    const change = await h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.writer, body: { brandKey: 'acme-kakao', url: receiver.url } });
    expect(change.status).toBe(403);
    expect(change.body).toMatchObject({ ok: false, code: 'FORBIDDEN' });
  });

  it.each([
    ['a private address', 'https://10.0.0.8/hook'],
    ['the metadata address', 'http://169.254.169.254/latest'],
    ['plain http to a public host', 'http://93.184.216.34/hook'],
    ['not a URL', 'hooks'],
  ])('refuses %s as the webhook with 400 BAD_REQUEST', async (_, url) => {
    const reply = await h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', url } });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ ok: false, code: 'BAD_REQUEST', message: expect.stringContaining('url') });
  });

  it.each([
    ['an empty url', { url: '' }, 'url must not be empty: give a https URL, or null to disconnect the webhook'],
    ['no url at all', {}, 'url is required'],
  ])('refuses %s with 400 and keeps the webhook (only null disconnects it)', async (_, body, message) => {
    const reply = await h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', ...body } });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ ok: false, code: 'BAD_REQUEST', message });
    const read = await h.get<WebhookView>('/api/agent/settings/webhook?brand=acme-kakao', TOKENS.writer);
    expect(read.body.url).toBe(receiver.url);
  });
});

describe('a consent result held for its turn when the service stops', () => {
  it('gets one last attempt while the service stops instead of being dropped', async () => {
    const h = await ServiceHarness.start();
    const receiver = await WebhookReceiver.start();
    try {
      await h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', url: receiver.url } });
      receiver.status = 503;
      await h.customerWrites('s-stop', { text: 'call me' });
      expect((await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 's-stop' })).body).toMatchObject({ ok: true });
      await h.post('/sandbox/customers/s-stop/consent', { brandKey: 'acme-kakao', nickname: 'Hana', phoneNumber: '010-1234-5678' });
      await new Promise((resolve) => setTimeout(resolve, 500));
      receiver.status = 200;
    } finally {
      await h.stop();
    }
    try {
      const consent = receiver.accepted.filter((d) => d.json['kind'] === 'personal_info').map((d) => d.json);
      expect(consent).toEqual([expect.objectContaining({ userKey: 's-stop', nickname: 'Hana', phoneNumber: '010-1234-5678' })]);
    } finally {
      await receiver.stop();
    }
  });
});

describe('a consent result held for its turn while the Admin changes the webhook', () => {
  let h: ServiceHarness;
  let first: WebhookReceiver;
  let second: WebhookReceiver;
  const consentTo = (r: WebhookReceiver, userKey: string) => r.received.filter((d) => d.json['kind'] === 'personal_info' && d.json['userKey'] === userKey);
  const setWebhook = (url: string | null) => h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', url } });

  beforeAll(async () => {
    h = await ServiceHarness.start();
    [first, second] = await Promise.all([WebhookReceiver.start(), WebhookReceiver.start()]);
  });
  let stopped = false;
  afterAll(async () => {
    if (!stopped) await h.stop();
    await Promise.all([first.stop(), second.stop()]);
  });

  /** The customer consents while the channel's webhook refuses deliveries, so the values wait for their turn. */
  async function consentWhileRefused(userKey: string): Promise<void> {
    await setWebhook(first.url);
    first.status = 503;
    await h.customerWrites(userKey, { text: 'you may call me' });
    expect((await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey })).body).toMatchObject({ ok: true });
    await h.post(`/sandbox/customers/${userKey}/consent`, { brandKey: 'acme-kakao', nickname: 'Bo', phoneNumber: '010-3333-4444' });
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  it('sends the values to the webhook set meanwhile, never to the one it replaced', async () => {
    await consentWhileRefused('w-moved');
    await setWebhook(second.url);
    first.status = 200;
    await second.waitFor(() => consentTo(second, 'w-moved').length > 0, 20_000);
    expect(consentTo(second, 'w-moved').map((d) => d.json)).toEqual([expect.objectContaining({ nickname: 'Bo', phoneNumber: '010-3333-4444' })]);
    expect(consentTo(first, 'w-moved')).toEqual([]);
  });

  it('drops the values when the webhook was removed meanwhile, and sends them nowhere, also when the service stops', async () => {
    await consentWhileRefused('w-removed');
    await setWebhook(null);
    first.status = 200;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    stopped = true;
    await h.stop();
    expect(consentTo(first, 'w-removed')).toEqual([]);
    expect(consentTo(second, 'w-removed')).toEqual([]);
  });
});

describe('a channel whose webhook is removed', () => {
  let h: ServiceHarness;
  let receiver: WebhookReceiver;
  const setWebhook = (url: string | null) => h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', url } });
  const hitsOf = (userKey: string) => receiver.received.filter((d) => d.json['userKey'] === userKey);
  const signalsOf = async (userKey: string) => {
    const all = await h.get<{ signals: Array<{ signal: Record<string, unknown> }> }>('/api/agent/signals?brand=acme-kakao&max=1000', TOKENS.reader);
    return all.body.signals.map((s) => s.signal).filter((signal) => signal['userKey'] === userKey);
  };

  beforeAll(async () => {
    h = await ServiceHarness.start();
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    await h.stop();
    await receiver.stop();
  });
  afterEach(() => {
    receiver.status = 200;
    receiver.answerDelayMs = 0;
  });

  it('stops retrying what waited for it: the URL gets nothing more, also once it is set again, and the signals stay listed', async () => {
    expect((await setWebhook(receiver.url)).status).toBe(200);
    receiver.status = 503;
    await h.customerWrites('rm-held', { text: 'one' });
    await h.customerWrites('rm-held', { text: 'two' });
    const deadline = Date.now() + 10_000;
    while (hitsOf('rm-held').length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(hitsOf('rm-held').length).toBeGreaterThanOrEqual(2);

    const removed = await setWebhook(null);
    expect([removed.status, removed.body['url']]).toEqual([200, null]);
    const hitsAtRemoval = hitsOf('rm-held').length;
    receiver.status = 200;
    // its retries were due after 1 s, 2 s, 4 s
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(hitsOf('rm-held').length).toBe(hitsAtRemoval);

    // set again (the same URL): a new signal is delivered, what was held at the removal is not
    expect((await setWebhook(receiver.url)).status).toBe(200);
    await h.customerWrites('rm-later', { text: 'after the webhook is back' });
    await receiver.waitFor((a) => a.some((d) => d.json['userKey'] === 'rm-later' && d.json['kind'] === 'message'));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(hitsOf('rm-held').length).toBe(hitsAtRemoval);
    expect(receiver.accepted.filter((d) => d.json['userKey'] === 'rm-held')).toEqual([]);
    expect((await signalsOf('rm-held')).map((signal) => signal['kind'])).toEqual(['reference', 'message', 'message']);
  });

  it('stops a delivery round in progress: nothing reaches the URL once the removal is answered', async () => {
    expect((await setWebhook(receiver.url)).status).toBe(200);
    receiver.answerDelayMs = 200;
    const users = ['rm-busy-1', 'rm-busy-2'];
    for (const userKey of users) for (let i = 0; i < 10; i++) await h.customerWrites(userKey, { text: `message ${i}` });
    await receiver.waitFor((a) => a.some((d) => users.includes(String(d.json['userKey']))), 10_000);

    const removed = await setWebhook(null);
    const removedAtMs = Date.now();
    expect(removed.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const late = receiver.received.filter((d) => users.includes(String(d.json['userKey'])) && d.atMs > removedAtMs);
    expect(late.map((d) => d.json['seq'])).toEqual([]);
    for (const userKey of users) expect(await signalsOf(userKey)).toHaveLength(11);
  });
});

describe('signal delivery across a restart', () => {
  let h: ServiceHarness;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    h = await ServiceHarness.start();
    receiver = await WebhookReceiver.start();
    await h.request('PUT', '/api/agent/settings/webhook', { token: TOKENS.admin, body: { brandKey: 'acme-kakao', url: receiver.url } });
  });
  afterAll(async () => {
    await h.stop();
    await receiver.stop();
  });

  it('delivers at once after a restart, also when the channel had nothing left to deliver at the stop', async () => {
    await h.customerWrites('r-before', { text: 'before the restart' });
    await receiver.waitFor((a) => a.some((d) => d.json['userKey'] === 'r-before' && d.json['kind'] === 'message'));
    await h.restart();
    const restartedAt = Date.now();
    await h.customerWrites('r-after', { text: 'after the restart' });
    // the stopped service gave its delivery lease back: the new one does not wait DELIVERY_LEASE_MS (30 s) for it
    await receiver.waitFor((a) => a.some((d) => d.json['userKey'] === 'r-after' && d.json['kind'] === 'message'), 5_000);
    expect(Date.now() - restartedAt).toBeLessThan(5_000);
  });
});
