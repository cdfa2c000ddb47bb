import { ServiceHarness } from '../test-support/service-harness';

describe('the pairing routes refusing a body they cannot read', () => {
  let h: ServiceHarness;

  beforeAll(async () => {
    h = await ServiceHarness.start();
  });
  afterAll(async () => {
    await h.stop();
  });

  const plainText = { 'content-type': 'text/plain' };

  it.each(['/api/auth/device/code', '/api/auth/device/token'])('415 on %s names the form-encoded bodies RFC 8628 clients send, and JSON', async (path) => {
    const reply = await h.request('POST', path, { token: null, rawBody: 'client_id=brandwire-cli', headers: plainText });
    expect([reply.status, reply.body]).toEqual([
      415,
      {
        ok: false,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'the request body must be form-encoded (Content-Type: application/x-www-form-urlencoded) or JSON (Content-Type: application/json); got text/plain',
      },
    ]);
  });

  it('415 elsewhere still names JSON, and multipart for uploads', async () => {
    const reply = await h.request('POST', '/api/agent/send', { rawBody: 'brandKey=acme-kakao', headers: plainText });
    expect([reply.status, reply.body['message']]).toEqual([415, 'the request body must be JSON (Content-Type: application/json), or multipart/form-data for uploads; got text/plain']);
  });

  it('400 on a malformed JSON body of POST /api/auth/device/code, in the envelope', async () => {
    const reply = await h.request('POST', '/api/auth/device/code', { token: null, rawBody: '{"client_id":', headers: { 'content-type': 'application/json' } });
    expect([reply.status, reply.body['ok'], reply.body['code']]).toEqual([400, false, 'BAD_REQUEST']);
  });

  it.each(['/api/auth/device/code', '/api/auth/device/token'])('413 on a form-encoded body of %s with more than 20 fields, in the envelope', async (path) => {
    const fields = Array.from({ length: 21 }, (_, i) => `f${i}=x`).join('&');
    const reply = await h.request('POST', path, { token: null, rawBody: fields, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([reply.status, reply.body]).toEqual([413, { ok: false, code: 'PAYLOAD_TOO_LARGE', message: 'the form-encoded request body has more than 20 fields' }]);
  });
});
