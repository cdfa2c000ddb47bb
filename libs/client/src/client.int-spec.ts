import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ApiError, BrandwireClient, NetworkError } from './index';
import { LiveService, TEST_TOKENS, startJsonEcho, writePng } from './testing';

describe('BrandwireClient against the built service', () => {
  let live: LiveService;
  let writer: BrandwireClient;
  let files: string;

  beforeAll(async () => {
    live = await LiveService.start();
    writer = new BrandwireClient({ endpoint: live.url, token: TEST_TOKENS.writer, userAgent: 'client-test' });
    files = mkdtempSync(join(tmpdir(), 'client-files-'));
  });
  afterAll(async () => {
    await live.stop();
    rmSync(files, { recursive: true, force: true });
  });

  const target = (userKey: string) => ({ brandKey: 'acme-kakao', userKey });

  it('reads the key, its scope and its brands', async () => {
    const me = await writer.me();
    expect(me).toMatchObject({ ok: true, name: 'agent', scope: 'BrandWrite', brands: [{ id: 'acme', channels: [{ key: 'acme-kakao' }, { key: 'acme-naver' }] }], attachmentHost: 'talk-cdn.sandbox.invalid' });
  });

  it('sends text, rich and attachments that the customer receives, then deletes by serial', async () => {
    await live.customerWrites('c1', 'hello');
    const text = await writer.send({ ...target('c1'), text: 'Hi from the client' });
    expect(text).toEqual({ ok: true, code: '0', message: null, serial: expect.stringMatching(/^bw-\d+-/) });
    const rich = await writer.sendRich({ ...target('c1'), rich: JSON.stringify({ chat_bubble_type: 'TEXT', message: 'Rich hello' }) });
    expect(rich.ok).toBe(true);
    const png = writePng(join(files, 'photo.png'), 600, 400);
    const attachments = await writer.sendAttachments({ ...target('c1'), files: [png], text: 'A photo', imageStyle: 'plain' });
    expect(attachments).toMatchObject({ ok: true, results: [{ kind: 'text', ok: true }, { kind: 'image', ok: true }] });
    const chat = await live.customerChat('c1');
    expect(chat.filter((b) => b.from !== 'customer').map((b) => b.text ?? b.kind)).toEqual(expect.arrayContaining(['Hi from the client', 'Rich hello', 'A photo']));

    const deleted = await writer.delete({ ...target('c1'), serial: text.serial as string });
    expect(deleted).toMatchObject({ ok: true, serial: text.serial });
    expect((await live.customerChat('c1')).find((b) => b.serial === text.serial)?.deleted).toBe(true);
  });

  it('uploads a plain image and sends it by URL; uploads a file', async () => {
    await live.customerWrites('c2', 'hello');
    const png = writePng(join(files, 'plain.png'), 300, 300);
    const upload = await writer.uploadImage({ brand: 'acme-kakao', file: png, imageType: 'plain' });
    expect(upload).toMatchObject({ ok: true, imageType: 'plain', url: expect.stringMatching(/^https?:\/\//) });
    expect((await writer.sendImage({ ...target('c2'), imageUrl: upload.url })).ok).toBe(true);
    const doc = join(files, 'notes.txt');
    writeFileSync(doc, 'some notes');
    expect(await writer.uploadFile({ brand: 'acme-kakao', file: doc, fileType: 'file' })).toMatchObject({ ok: true, fileType: 'file', url: expect.any(String) });
  });

  it('reads rooms, messages and conversations', async () => {
    await live.customerWrites('c3', 'where is my order?');
    expect((await writer.rooms({ brand: 'acme-kakao' })).rooms.map((r) => r.userKey)).toContain('c3');
    const messages = await writer.messages({ brand: 'acme-kakao', userKey: 'c3', max: 5 });
    expect(messages).toMatchObject({ ok: true, brand: 'acme-kakao', userKey: 'c3', messages: [{ kind: 'message', text: 'where is my order?' }, { kind: 'reference' }] });
    const conversations = await writer.conversations({ brand: 'acme-kakao', userKey: 'c3' });
    expect(conversations).toEqual([{ brand: 'acme-kakao', conversations: [expect.objectContaining({ userKey: 'c3' })] }]);
    const convId = conversations[0]?.conversations[0]?.convId as string;
    expect((await writer.conversation({ brand: 'acme-kakao', convId })).lines).toContainEqual(expect.objectContaining({ role: 'customer', text: 'where is my order?' }));
  });

  it('reads the settings and lets an Admin key change them', async () => {
    expect((await writer.profile('acme-kakao')).profile).toMatchObject({ name: 'Acme Kakao', type: 'kakao' });
    expect(await writer.webhook('acme-kakao')).toMatchObject({ ok: true, brand: 'acme-kakao', url: null });
    expect(await writer.chat('acme-kakao')).toEqual({ ok: true, brand: 'acme-kakao', active: true });
    expect(await writer.schedule('acme-kakao')).toMatchObject({ ok: true, brand: 'acme-kakao' });
    expect((await writer.systemMessages('acme-kakao')).messages.greeting).toEqual(expect.any(String));
    expect(await writer.plan('acme-kakao')).toMatchObject({ ok: true, consultations: 1000 });
    const admin = new BrandwireClient({ endpoint: live.url, token: TEST_TOKENS.admin });
    expect(await admin.setChatActive({ brandKey: 'acme-naver', active: false })).toMatchObject({ ok: true, active: false });
    const schedule = { weekly: { mon: [{ start: '09:00', end: '18:00' }] } };
    expect((await admin.setSchedule({ brandKey: 'acme-naver', schedule })).schedule).toMatchObject(schedule);
  });

  it('turns error envelopes into ApiError with status, code and message', async () => {
    const stranger = new BrandwireClient({ endpoint: live.url, token: 'not-a-key-of-ours-0000' });
    await expect(stranger.me()).rejects.toMatchObject({ name: 'ApiError', status: 401, code: 'UNAUTHORIZED', message: 'unknown key', errorCode: 'UNAUTHORIZED' });
    await expect(writer.setChatActive({ brandKey: 'acme-kakao', active: false })).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
    const missing = writer.conversation({ brand: 'acme-kakao', convId: 'nope' });
    await expect(missing).rejects.toBeInstanceOf(ApiError);
    await expect(missing).rejects.toMatchObject({ status: 404, code: 'NO_CONV' });
  });

  it('returns messenger rejections of a send as the REST API does (HTTP 200, ok false)', async () => {
    await live.customerWrites('c4', 'bye');
    await live.call('POST', '/sandbox/customers/c4/end', { brandKey: 'acme-kakao' });
    expect(await writer.send({ ...target('c4'), text: 'too late' })).toMatchObject({ ok: false, code: '-502', serial: expect.any(String) });
  });

  it('lists the keys a key manages and revokes one: refused from then on', async () => {
    const admin = new BrandwireClient({ endpoint: live.url, token: TEST_TOKENS.admin });
    const listed = await admin.keys();
    // the seed's keys are made within a millisecond or so: their order among themselves is not theirs to keep
    const byName = (x: unknown[], y: unknown[]) => String(x[0]).localeCompare(String(y[0]));
    expect(listed.keys.map((k) => [k.name, k.scope, k.brands, k.current]).sort(byName)).toEqual([
      ['agent', 'BrandWrite', ['acme'], false],
      ['ops', 'Admin', ['acme'], true],
      ['viewer', 'BrandRead', ['acme'], false],
    ]);
    expect(listed.keys.find((k) => k.name === 'ops')).toEqual({ id: expect.stringMatching(/^key_/), name: 'ops', scope: 'Admin', brands: ['acme'], createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*[+-]\d\d:\d\d$/), current: true });
    // the globex key is used by no other test here: it revokes itself
    const globex = new BrandwireClient({ endpoint: live.url, token: TEST_TOKENS.otherBrand });
    const own = (await globex.keys()).keys;
    expect(own.map((k) => [k.name, k.current])).toEqual([['globex-agent', true]]);
    await expect(globex.revokeKey(listed.keys.find((k) => k.name === 'agent')?.id as string)).rejects.toMatchObject({ name: 'ApiError', status: 403, code: 'FORBIDDEN' });
    await expect(admin.revokeKey(own[0]?.id as string)).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await globex.revokeKey(own[0]?.id as string)).toEqual({ ok: true, id: own[0]?.id, name: 'globex-agent', revoked: true, self: true });
    await expect(globex.keys()).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('makes a key with an Admin key, whose token then works', async () => {
    const admin = new BrandwireClient({ endpoint: live.url, token: TEST_TOKENS.admin });
    const made = await admin.createKey({ name: 'client-made', scope: 'BrandRead', brands: ['acme'] });
    expect(made).toMatchObject({ ok: true, name: 'client-made', scope: 'BrandRead', brands: ['acme'], current: false, token: expect.stringMatching(/^bw_/) });
    expect(await new BrandwireClient({ endpoint: live.url, token: made.token }).me()).toMatchObject({ name: 'client-made', scope: 'BrandRead' });
    const reader = new BrandwireClient({ endpoint: live.url, token: TEST_TOKENS.reader });
    await expect(reader.createKey({ name: 'x', scope: 'BrandRead', brands: ['acme'] })).rejects.toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });

  it('starts a device pairing and reads the RFC 8628 refusals', async () => {
    const anonymous = new BrandwireClient({ endpoint: live.url });
    const code = await anonymous.requestDeviceCode();
    expect(code).toMatchObject({ user_code: expect.stringMatching(/^\w{4}-\w{4}$/), verification_uri: `${live.url}/pair`, interval: 5 });
    expect(await anonymous.pollDeviceToken(code.device_code)).toEqual({ issued: false, refusal: expect.objectContaining({ error: 'authorization_pending' }) });
    expect(await anonymous.pollDeviceToken(code.device_code)).toEqual({ issued: false, refusal: expect.objectContaining({ error: 'slow_down', interval: 10 }) });
  });
});

describe('BrandwireClient without a Brandwire service', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((request, response) => {
      response.writeHead(request.url?.includes('me') ? 200 : request.url?.includes('profile') ? 404 : 502, { 'content-type': 'text/plain' });
      response.end('not json');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((done) => server.close(done));
  });

  it('reports a closed port as a NetworkError naming the endpoint', async () => {
    const closed = new BrandwireClient({ endpoint: 'http://127.0.0.1:9', token: 'x' });
    const failure = closed.me();
    await expect(failure).rejects.toBeInstanceOf(NetworkError);
    await expect(failure).rejects.toMatchObject({ code: 'NETWORK', message: 'could not reach the service at http://127.0.0.1:9: ECONNREFUSED' });
  });

  it('reports a timeout as a NetworkError', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const client = new BrandwireClient({ endpoint: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 200 });
    await expect(client.me()).rejects.toMatchObject({ code: 'NETWORK', message: expect.stringContaining('no answer within 200 ms'), unanswered: { method: 'GET', path: '/api/agent/me', failure: 'timeout', timeoutMs: 200 } });
    // a send that got no answer may have been carried out: it says which request, and the longer wait of an upload
    await expect(client.send({ brandKey: 'b', userKey: 'u', text: 't' })).rejects.toMatchObject({ unanswered: { method: 'POST', path: '/api/agent/send', timeoutMs: 200 } });
    const dir = mkdtempSync(join(tmpdir(), 'client-silent-'));
    await expect(client.sendAttachments({ brandKey: 'b', userKey: 'u', files: [writePng(join(dir, 'a.png'), 20, 20)] })).rejects.toMatchObject({
      unanswered: { method: 'POST', path: '/api/agent/send/attachments', timeoutMs: 800 },
    });
    rmSync(dir, { recursive: true, force: true });
    silent.closeAllConnections();
    await new Promise((done) => silent.close(done));
  });

  it("ends a call the service leaves unanswered as soon as the client's signal aborts, with the signal's reason", async () => {
    const silent = createServer((request) => request.resume());
    await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
    const stopping = new AbortController();
    const client = new BrandwireClient({ endpoint: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 20_000, signal: stopping.signal });
    const reads = [client.me(), client.messages({ brand: 'b', userKey: 'u' }), client.send({ brandKey: 'b', userKey: 'u', text: 't' })];
    const started = Date.now();
    setTimeout(() => stopping.abort(), 200);
    for (const read of reads) await expect(read).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(2_000);
    // a call made after the stop does not go out
    await expect(client.me()).rejects.toMatchObject({ name: 'AbortError' });
    silent.closeAllConnections();
    await new Promise((done) => silent.close(done));
  });

  it('reports a connection that broke after the whole request went out as unanswered: the service may have carried it out', async () => {
    // reads each request to its end, then drops the connection without an answer
    const hangUp = createServer((request) => {
      request.resume();
      request.on('end', () => request.socket.destroy());
    });
    await new Promise<void>((done) => hangUp.listen(0, '127.0.0.1', done));
    const endpoint = `http://127.0.0.1:${(hangUp.address() as AddressInfo).port}`;
    const client = new BrandwireClient({ endpoint, timeoutMs: 5000 });
    const broke = { code: 'NETWORK', message: `could not reach the service at ${endpoint}: the connection broke before the answer (ECONNRESET)` };
    await expect(client.send({ brandKey: 'b', userKey: 'u', text: 't' })).rejects.toMatchObject({ ...broke, unanswered: { method: 'POST', path: '/api/agent/send', failure: 'connection-broke', errorCode: 'ECONNRESET' } });
    const dir = mkdtempSync(join(tmpdir(), 'client-hang-up-'));
    await expect(client.sendAttachments({ brandKey: 'b', userKey: 'u', files: [writePng(join(dir, 'a.png'), 200, 200)] })).rejects.toMatchObject({
      ...broke,
      unanswered: { method: 'POST', path: '/api/agent/send/attachments', failure: 'connection-broke' },
    });
    await expect(client.me()).rejects.toMatchObject({ ...broke, unanswered: { method: 'GET', path: '/api/agent/me', failure: 'connection-broke' } });
    rmSync(dir, { recursive: true, force: true });
    await new Promise((done) => hangUp.close(done));
  });

  it('reports an answer the connection cut off after its headers as unanswered too', async () => {
    // answers the head of a JSON body, then drops the connection
    const cutOff = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        response.write('{"ok":true,"ser');
        setTimeout(() => request.socket.destroy(), 20);
      });
    });
    await new Promise<void>((done) => cutOff.listen(0, '127.0.0.1', done));
    const endpoint = `http://127.0.0.1:${(cutOff.address() as AddressInfo).port}`;
    const client = new BrandwireClient({ endpoint, timeoutMs: 5000 });
    await expect(client.send({ brandKey: 'b', userKey: 'u', text: 't' })).rejects.toMatchObject({
      code: 'NETWORK',
      message: `could not reach the service at ${endpoint}: the connection broke before the answer (its answer was cut off)`,
      unanswered: { method: 'POST', path: '/api/agent/send', failure: 'connection-broke', errorCode: 'its answer was cut off' },
    });
    await new Promise((done) => cutOff.close(done));
  });

  it('reports a change that never went out (refused port) as not reached, without an unanswered request', async () => {
    const closed = new BrandwireClient({ endpoint: 'http://127.0.0.1:9', token: 'x' });
    const failure = closed.send({ brandKey: 'b', userKey: 'u', text: 't' });
    await expect(failure).rejects.toMatchObject({ code: 'NETWORK', message: 'could not reach the service at http://127.0.0.1:9: ECONNREFUSED' });
    await expect(failure).rejects.toHaveProperty('unanswered', undefined);
  });

  it('reports answers that are not JSON or not the envelope', async () => {
    const client = new BrandwireClient({ endpoint: url, token: 'x' });
    await expect(client.me()).rejects.toMatchObject({ name: 'ApiError', status: 200, code: 'BAD_RESPONSE' });
    await expect(client.rooms({ brand: 'b' })).rejects.toMatchObject({ name: 'ApiError', status: 502, code: 'HTTP_502' });
  });

  it('names the endpoint and the request when an answer lacks the error envelope (a 404 of another server)', async () => {
    const client = new BrandwireClient({ endpoint: url, token: 'x' });
    await expect(client.profile('b')).rejects.toMatchObject({
      status: 404,
      code: 'HTTP_404',
      message: `the endpoint ${url} answered GET /api/agent/settings/profile with HTTP 404 without the error envelope: it may not be a Brandwire service (or a proxy in front of it failed)`,
    });
  });
});

describe('BrandwireClient against an endpoint that echoes JSON', () => {
  let echo: Awaited<ReturnType<typeof startJsonEcho>>;
  let url: string;
  let received: string[];

  beforeAll(async () => {
    echo = await startJsonEcho();
    ({ url, received } = echo);
  });
  afterAll(() => echo.close());

  it('fails with BAD_RESPONSE naming the request and what the answer lacked, for the gateway as for the tool', async () => {
    const client = new BrandwireClient({ endpoint: url, token: 'x' });
    const notBrandwire = `the endpoint ${url} did not answer as a Brandwire service`;
    await expect(client.me()).rejects.toMatchObject({ name: 'ApiError', status: 200, code: 'BAD_RESPONSE', message: `${notBrandwire}: GET /api/agent/me answered 200 without name (a string)` });
    await expect(client.rooms({ brand: 'b' })).rejects.toMatchObject({ code: 'BAD_RESPONSE', message: `${notBrandwire}: GET /api/agent/rooms answered 200 without brand (a string)` });
    await expect(client.messages({ brand: 'b', userKey: 'u' })).rejects.toMatchObject({ code: 'BAD_RESPONSE', message: `${notBrandwire}: GET /api/agent/rooms/u/messages answered 200 without brand (a string)` });
    await expect(client.conversations()).rejects.toMatchObject({ code: 'BAD_RESPONSE', message: `${notBrandwire}: GET /api/agent/conversations answered 200 with an object instead of an array` });
    await expect(client.signals({ brand: 'b' })).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
    await expect(client.keys()).rejects.toMatchObject({ code: 'BAD_RESPONSE', message: `${notBrandwire}: GET /api/agent/keys answered 200 without keys (an array)` });
    await expect(client.revokeKey('key/1')).rejects.toMatchObject({ code: 'BAD_RESPONSE', message: `${notBrandwire}: DELETE /api/agent/keys/key%2F1 answered 200 without id (a string)` });
    expect(received).toEqual([
      'GET /api/agent/me',
      'GET /api/agent/rooms?brand=b',
      'GET /api/agent/rooms/u/messages?brand=b',
      'GET /api/agent/conversations',
      'GET /api/agent/signals?brand=b',
      'GET /api/agent/keys',
      'DELETE /api/agent/keys/key%2F1',
    ]);
  });

  it('never takes an answer without serial and code for a send', async () => {
    const client = new BrandwireClient({ endpoint: url, token: 'x' });
    await expect(client.send({ brandKey: 'b', userKey: 'u', text: 'hi' })).rejects.toMatchObject({ code: 'BAD_RESPONSE', message: expect.stringMatching(/: POST \/api\/agent\/send answered 200 without code \(a string\)$/) });
    await expect(client.sendRich({ brandKey: 'b', userKey: 'u', rich: '{}' })).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
    await expect(client.end({ brandKey: 'b', userKey: 'u' })).rejects.toMatchObject({ code: 'BAD_RESPONSE' });
  });
});
