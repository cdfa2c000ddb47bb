import { toErrorReply } from './to-error-reply';

describe('toErrorReply', () => {
  it('answers a body its client stopped sending (raw-body: ECONNABORTED) as 400, not as the database being down', () => {
    const aborted = Object.assign(new Error('request aborted'), { type: 'request.aborted', code: 'ECONNABORTED', status: 400 });
    expect(toErrorReply(aborted)).toEqual({ status: 400, body: { ok: false, code: 'BAD_REQUEST', message: 'the request was aborted before its body arrived' } });
  });

  it('answers a connection to the database that was refused or cut as 503 STORAGE_UNAVAILABLE', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', '57P01']) {
      expect(toErrorReply(Object.assign(new Error('down'), { code }))?.body).toMatchObject({ ok: false, code: 'STORAGE_UNAVAILABLE' });
    }
    expect(toErrorReply(new Error('Connection terminated unexpectedly'))?.status).toBe(503);
  });

  it('leaves an error it does not know to the caller (a bug: 500)', () => {
    expect(toErrorReply(new Error('something else'))).toBeUndefined();
  });
});
