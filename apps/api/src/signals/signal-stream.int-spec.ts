import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Store, openStore } from '@brandwire/store';
import { type TestDatabase, testDatabase } from '@brandwire/store/testing';
import { Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ServiceHarness, TOKENS } from '../test-support/service-harness';
import { SignalBus } from './signal-bus';
import { streamSignals } from './signal-stream';
import { FROM_START } from './signals.service';

interface StreamEvent {
  id?: string;
  event?: string;
  data: Record<string, unknown>;
}

/** Reads a Server-Sent Events stream until `count` events arrived, then closes it. */
async function readEvents(url: string, token: string, count: number, headers: Record<string, string> = {}): Promise<StreamEvent[]> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, ...headers }, signal: controller.signal });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const events: StreamEvent[] = [];
  let buffer = '';
  const timer = setTimeout(() => controller.abort(), 10_000);
  try {
    while (events.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: Partial<StreamEvent> = {};
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) event.id = line.slice(4);
          else if (line.startsWith('event: ')) event.event = line.slice(7);
          else if (line.startsWith('data: ')) event.data = JSON.parse(line.slice(6)) as Record<string, unknown>;
        }
        if (event.data) events.push(event as StreamEvent);
      }
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return events;
}

describe('GET /api/agent/signals/stream', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  it('streams the backlog and then live signals, and resumes after Last-Event-ID', async () => {
    await h.customerWrites('e1', { text: 'first' });
    const live = readEvents(`${h.url}/api/agent/signals/stream?brand=acme-kakao`, TOKENS.reader, 4);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'e1', text: 'live one' });
    const events = await live;
    expect(events.map((e) => [e.event, e.data['phase'] ?? null])).toEqual([
      ['reference', null],
      ['message', null],
      ['agent', 'accepted'],
      ['agent', null],
    ]);
    expect(events.map((e) => e.id)).toEqual(events.map((e) => `${String(e.data['seq'])}.${e.event === 'agent' && e.data['phase'] === undefined ? 1 : 0}`));

    const resumed = await readEvents(`${h.url}/api/agent/signals/stream?brand=acme-kakao`, TOKENS.reader, 2, { 'last-event-id': events[1]?.id ?? '' });
    expect(resumed.map((e) => e.id)).toEqual([events[2]?.id, events[3]?.id]);
  });

  it('relays a consent result to an open stream of a channel without a webhook, which allows the request', async () => {
    await h.customerWrites('e-consent', { text: 'call me' });
    expect((await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'e-consent' })).body).toMatchObject({ code: 'NO_WEBHOOK' });
    const last = (await h.get<{ signals: Array<{ id: string }> }>('/api/agent/signals?brand=acme-kakao&max=1000', TOKENS.reader)).body.signals.at(-1)?.id ?? '';
    const live = readEvents(`${h.url}/api/agent/signals/stream?brand=acme-kakao`, TOKENS.reader, 3, { 'last-event-id': last });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'e-consent' })).body).toMatchObject({ ok: true });
    await h.post('/sandbox/customers/e-consent/consent', { brandKey: 'acme-kakao', nickname: 'Mina', phoneNumber: '010-1234-5678' });
    const events = await live;
    expect(events.map((e) => e.event)).toEqual(['agent', 'agent', 'personal_info']);
    expect(events[2]?.data).toMatchObject({ userKey: 'e-consent', nickname: 'Mina', phoneNumber: '010-1234-5678' });
  });

  it('with after=now streams only the signals written from then on', async () => {
    await h.customerWrites('e-before', { text: 'written before the stream opened' });
    const live = readEvents(`${h.url}/api/agent/signals/stream?brand=acme-kakao&after=now`, TOKENS.reader, 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await h.customerWrites('e-after', { text: 'written after' });
    const events = await live;
    expect(events.map((e) => [e.event, e.data['userKey']])).toEqual([
      ['reference', 'e-after'],
      ['message', 'e-after'],
    ]);
    // polled with after=now: nothing, and the cursor of the end to follow from
    const end = await h.get<{ signals: unknown[]; next: string }>('/api/agent/signals?brand=acme-kakao&after=now', TOKENS.reader);
    expect(end.body).toMatchObject({ ok: true, signals: [], next: String(events[1]?.data['seq']) });
    const wrong = await h.request('GET', '/api/agent/signals/stream?brand=acme-kakao&after=later', { token: TOKENS.reader });
    expect([wrong.status, wrong.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'after must be a seq such as 12, an event id such as 12.0, or now' }]);
  });

  it("with after=now names the end it starts at as an id, so a client that reconnects before any signal (an EventSource, with Last-Event-ID) misses none", async () => {
    await h.customerWrites('e-pre', { text: 'written before the stream opened' });
    const end = (await h.get<{ next: string }>('/api/agent/signals?brand=acme-kakao&after=now', TOKENS.reader)).body.next;
    const controller = new AbortController();
    const response = await fetch(`${h.url}/api/agent/signals/stream?brand=acme-kakao&after=now`, { headers: { authorization: `Bearer ${TOKENS.reader}` }, signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let head = '';
    while (!/\n\nid: [^\n]*\n\n/.test(head)) {
      const { value, done } = await reader.read();
      if (done) break;
      head += new TextDecoder().decode(value);
    }
    controller.abort();
    // an id alone, no data: an EventSource keeps it as its last event id and dispatches nothing
    expect(head).toBe(`retry: 2000\n\nid: ${end}\n\n`);
    await h.customerWrites('e-gap', { text: 'written while the client was away' });
    const resumed = await readEvents(`${h.url}/api/agent/signals/stream?brand=acme-kakao&after=now`, TOKENS.reader, 2, { 'last-event-id': end });
    expect(resumed.map((e) => [e.event, e.data['userKey']])).toEqual([
      ['reference', 'e-gap'],
      ['message', 'e-gap'],
    ]);
  });

  it('takes an empty Last-Event-ID as none: the stream starts from the first signal', async () => {
    await h.customerWrites('e-empty', { text: 'hello' });
    const all = (await h.get<{ signals: Array<{ id: string }> }>('/api/agent/signals?brand=acme-kakao&max=2', TOKENS.reader)).body.signals.map((s) => s.id);
    const events = await readEvents(`${h.url}/api/agent/signals/stream?brand=acme-kakao`, TOKENS.reader, 2, { 'last-event-id': '' });
    expect(events.slice(0, 2).map((e) => e.id)).toEqual(all);
  });

  it('refuses a cursor past the channel\'s last seq (it would skip the signals to come), polling and streaming', async () => {
    const last = (await h.get<{ signals: Array<{ signal: { seq: number } }> }>('/api/agent/signals?brand=acme-kakao&max=1000', TOKENS.reader)).body.signals.at(-1)?.signal.seq ?? 0;
    const polled = await h.get(`/api/agent/signals?brand=acme-kakao&after=${last + 1000}`, TOKENS.reader);
    expect([polled.status, polled.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: expect.stringMatching(new RegExp(`^after ${last + 1000} is past the channel's last seq \\d+: start from 0`)) }]);
    const streamed = await h.request('GET', '/api/agent/signals/stream?brand=acme-kakao', { token: TOKENS.reader, headers: { 'last-event-id': `${last + 1000}.0` } });
    expect([streamed.status, streamed.body['code']]).toEqual([400, 'BAD_REQUEST']);
    // the last seq itself is a cursor this service gives: nothing new yet
    expect((await h.get(`/api/agent/signals?brand=acme-kakao&after=${last}`, TOKENS.reader)).body).toMatchObject({ ok: true, signals: [], next: String(last) });
  });

  it('refuses a malformed Last-Event-ID with 400 and a key of another brand with 403', async () => {
    const bad = await h.request('GET', '/api/agent/signals/stream?brand=acme-kakao', { headers: { 'last-event-id': 'abc' } });
    expect(bad.status).toBe(400);
    const other = await h.request('GET', '/api/agent/signals/stream?brand=acme-kakao', { token: TOKENS.otherBrand });
    expect(other.status).toBe(403);
  });
});

describe('an open signal stream when the service stops', () => {
  it('is ended, so that the service stops at once instead of waiting for the client to go', async () => {
    const h = await ServiceHarness.start();
    const response = await fetch(`${h.url}/api/agent/signals/stream?brand=acme-kakao`, { headers: { authorization: `Bearer ${TOKENS.reader}` } });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const started = Date.now();
    await h.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    // the client sees its stream end (and would reconnect with Last-Event-ID)
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
  });
});

describe('a consent request on PostgreSQL (several instances) with only a signal stream open', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start({ dialect: 'postgres' });
  });
  afterAll(async () => {
    await h.stop();
  });

  it('is refused with 409 NO_WEBHOOK: the messenger may give the result to another instance than the stream\'s', async () => {
    await h.customerWrites('pg-consent', { text: 'call me' });
    const last = (await h.get<{ signals: Array<{ id: string }> }>('/api/agent/signals?brand=acme-kakao&max=1000', TOKENS.reader)).body.signals.at(-1)?.id ?? '';
    const live = readEvents(`${h.url}/api/agent/signals/stream?brand=acme-kakao`, TOKENS.reader, 1, { 'last-event-id': last });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reply = await h.post('/api/agent/personal-info/request', { brandKey: 'acme-kakao', userKey: 'pg-consent' });
    expect([reply.status, reply.body]).toEqual([409, { ok: false, code: 'NO_WEBHOOK', message: expect.stringContaining('only a webhook receives it') }]);
    expect((await h.customerChat('pg-consent')).filter((b) => b.kind === 'consent')).toEqual([]);
    await h.post('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'pg-consent', text: 'ends the stream read' });
    await live;
  });

  it('with after=now streams the signals written from then on (the end cursor fits the integer part column)', async () => {
    await h.customerWrites('pg-before', { text: 'written before the stream opened' });
    const live = readEvents(`${h.url}/api/agent/signals/stream?brand=acme-kakao&after=now`, TOKENS.reader, 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await h.customerWrites('pg-after', { text: 'written after' });
    const events = await live;
    expect(events.map((e) => [e.event, e.data['userKey']])).toEqual([
      ['reference', 'pg-after'],
      ['message', 'pg-after'],
    ]);
  });

  it('polled with after=now, then after the end it named, answers the signals written in between', async () => {
    const end = await h.get<{ ok: boolean; signals: unknown[]; next: string }>('/api/agent/signals?brand=acme-kakao&after=now', TOKENS.reader);
    expect(end.body).toMatchObject({ ok: true, signals: [], next: expect.stringMatching(/^\d+$/) });
    const nothingYet = await h.get<{ ok: boolean; signals: unknown[]; next: string }>(`/api/agent/signals?brand=acme-kakao&after=${end.body.next}`, TOKENS.reader);
    expect([nothingYet.status, nothingYet.body]).toEqual([200, { ok: true, brand: 'acme-kakao', signals: [], next: end.body.next }]);
    await h.customerWrites('pg-poll', { text: 'written after the end was taken' });
    const next = await h.get<{ signals: Array<{ signal: Record<string, unknown> }> }>(`/api/agent/signals?brand=acme-kakao&after=${end.body.next}`, TOKENS.reader);
    expect(next.status).toBe(200);
    expect(next.body.signals.map((s) => [s.signal['kind'], s.signal['userKey']])).toEqual([
      ['reference', 'pg-poll'],
      ['message', 'pg-poll'],
    ]);
  });
});

describe('a signal stream whose storage fails', () => {
  let database: TestDatabase;
  let store: Store;
  let server: Server;
  let url: string;
  let opened: Promise<void>;

  beforeAll(async () => {
    database = await testDatabase('sqlite');
    store = await openStore({ dataDir: database.dataDir, databaseUrl: undefined });
    server = createServer((req, res) => {
      opened = streamSignals(store, new SignalBus(), 'acme-kakao', FROM_START, req as Request, res as unknown as Response).then(
        () => undefined,
        (error: unknown) => {
          // what the service's error filter does for a request that failed before its answer began
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: false, code: 'INTERNAL', message: String(error) }));
        },
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close().catch(() => undefined);
    await database.drop();
  });

  it('tells the client when a later read fails: an error comment, then the stream ends (it reconnects from its last id)', async () => {
    const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      const response = await fetch(url);
      expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream; charset=utf-8']);
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      await store.close();
      let text = '';
      const deadline = Date.now() + 5_000;
      for (;;) {
        const { value, done } = await reader.read();
        if (done || Date.now() > deadline) break;
        text += new TextDecoder().decode(value);
      }
      expect(text).toMatch(/^: error: the signals could not be read/m);
      expect(error.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringContaining('signal stream of acme-kakao failed')]);
      await opened;
    } finally {
      error.mockRestore();
    }
  });

  it('fails before the stream opens when the first read fails, so the client gets an error answer, not an empty stream', async () => {
    // closed already when the test above ran
    await store.close().catch(() => undefined);
    const response = await fetch(url);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ ok: false, code: 'INTERNAL' });
  });
});

describe('a signal stream whose client left before it opened', () => {
  let database: TestDatabase;
  let store: Store;
  let server: Server;
  let url: string;
  let outcome: Promise<(() => void) | undefined>;

  beforeAll(async () => {
    database = await testDatabase('sqlite');
    store = await openStore({ dataDir: database.dataDir, databaseUrl: undefined });
    server = createServer((req, res) => {
      // the stream is asked for only once the client has gone (as when it leaves during the first read)
      outcome = new Promise((resolve, reject) => {
        req.once('close', () => {
          streamSignals(store, new SignalBus(), 'acme-kakao', FROM_START, req as Request, res as unknown as Response).then(resolve, reject);
        });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await store.close();
    await database.drop();
  });

  it('keeps nothing for it: no close to hold, no answer begun', async () => {
    const controller = new AbortController();
    const request = fetch(url, { signal: controller.signal }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    await request;
    const close = await outcome;
    close?.();
    expect(close).toBeUndefined();
  });
});
