import { CONVERSATIONS, KEYS, ME, REVOKED_KEY, SEND, SEND_ATTACHMENTS } from './answer-shapes';

describe('the checks of the service answers', () => {
  it('takes the answers the service gives', () => {
    const me = { ok: true, name: 'agent', scope: 'BrandWrite', brands: [{ id: 'acme', channels: [{ key: 'acme-kakao', name: 'Acme', type: 'kakao', plan: { consultations: 10, used: 0, remaining: 10 } }] }], attachmentHost: 'h' };
    expect(ME(me)).toBeUndefined();
    expect(SEND({ ok: true, code: '0', message: null, serial: 'bw-1-a' })).toBeUndefined();
    expect(SEND({ ok: false, code: '-502', message: 'no consultation', serial: 'bw-1-b' })).toBeUndefined();
    expect(SEND_ATTACHMENTS({ ok: false, results: [{ kind: 'image', ok: false, code: 'UNSUPPORTED_IMAGE', serial: 'bw-1-c' }] })).toBeUndefined();
    expect(CONVERSATIONS([{ brand: 'acme-kakao', conversations: [] }])).toBeUndefined();
    const key = { id: 'key_0123456789abcdef', name: 'ops', scope: 'Admin', brands: ['acme'], createdAt: '2026-11-26T09:30:00+09:00', current: true };
    expect(KEYS({ ok: true, keys: [key, { ...key, brands: [] }] })).toBeUndefined();
    expect(REVOKED_KEY({ ok: true, id: key.id, name: 'ops', revoked: true, self: false })).toBeUndefined();
  });

  it('names what a key list or a revocation lacks', () => {
    const key = { id: 'key_0123456789abcdef', name: 'ops', scope: 'Admin', brands: ['acme'], createdAt: '2026-11-26T09:30:00+09:00', current: true };
    expect(KEYS({ ok: true })).toBe('without keys (an array)');
    expect(KEYS({ ok: true, keys: [{ ...key, current: 'yes' }] })).toBe('with keys[0].current a string instead of a boolean');
    expect(KEYS({ ok: true, keys: [key, { ...key, brands: 'acme' }] })).toBe('with keys[1].brands not an array of strings');
    expect(KEYS({ ok: true, keys: [{ ...key, brands: [7] }] })).toBe('with keys[0].brands not an array of strings');
    expect(REVOKED_KEY({ ok: true })).toBe('without id (a string)');
    expect(REVOKED_KEY({ ok: true, id: key.id, name: 'ops', revoked: false, self: true })).toBe('with revoked false');
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
