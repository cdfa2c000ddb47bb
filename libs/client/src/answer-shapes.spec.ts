import { CONVERSATIONS, ME, SEND, SEND_ATTACHMENTS } from './answer-shapes';

describe('the checks of the service answers', () => {
  it('takes the answers the service gives', () => {
    const me = { ok: true, name: 'agent', scope: 'BrandWrite', brands: [{ id: 'acme', channels: [{ key: 'acme-kakao', name: 'Acme', type: 'kakao', plan: { consultations: 10, used: 0, remaining: 10 } }] }], attachmentHost: 'h' };
    expect(ME(me)).toBeUndefined();
    expect(SEND({ ok: true, code: '0', message: null, serial: 'bw-1-a' })).toBeUndefined();
    expect(SEND({ ok: false, code: '-502', message: 'no consultation', serial: 'bw-1-b' })).toBeUndefined();
    expect(SEND_ATTACHMENTS({ ok: false, results: [{ kind: 'image', ok: false, code: 'UNSUPPORTED_IMAGE', serial: 'bw-1-c' }] })).toBeUndefined();
    expect(CONVERSATIONS([{ brand: 'acme-kakao', conversations: [] }])).toBeUndefined();
  });

  it('names the first field missing or of another type, with its path', () => {
    expect(ME({ ok: true, name: 'n', scope: 'Admin', brands: [{ id: 'acme', channels: [{ key: 7 }] }] })).toBe('with brands[0].channels[0].key a number instead of a string');
    expect(ME({ ok: true, name: 'n', scope: 'Admin', brands: {} })).toBe('with brands an object instead of an array');
    expect(CONVERSATIONS({ ok: true })).toBe('with an object instead of an array');
    expect(SEND({ ok: true, code: '0' })).toBe('with ok true but without serial (a string)');
    expect(SEND({ ok: true })).toBe('without code (a string)');
    expect(SEND_ATTACHMENTS({ ok: true, results: [] })).toBe('with results empty');
    expect(SEND_ATTACHMENTS({ ok: true, results: [{ kind: 'text', ok: true, code: '0' }] })).toBe('with a delivered bubble (ok true) without serial (a string)');
  });
});
