import crypto from 'node:crypto';
import axios from 'axios';
import { SandboxHarness } from '../testing/harness';
import { KAKAO, customerSays, startHarness } from '../test-support/fixtures';

describe('sandbox X-Partner-Key and customer keys of the control API', () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    h = await startHarness();
    await customerSays(h, 'pk-user', 'hello');
  });
  afterAll(async () => {
    await h.close();
  });

  const call = (path: string, partnerKey: string | undefined, data: unknown = { user_key: 'pk-user', sender_key: KAKAO }) =>
    axios.post(`${h.sandbox.url}${path}`, data, { headers: partnerKey === undefined ? {} : { 'X-Partner-Key': partnerKey }, validateStatus: () => true });

  it('compares the partner key in constant time on both lanes of the partner API and on the control API', async () => {
    const compare = jest.spyOn(crypto, 'timingSafeEqual');
    try {
      const sameLength = h.partnerKey.replace(/.$/, (c) => (c === 'x' ? 'y' : 'x'));
      for (const path of ['/v1/unblock', '/v1/unblock?lane=express']) {
        for (const key of [sameLength, 'short', `${h.partnerKey}-longer`]) {
          compare.mockClear();
          const res = await call(path, key);
          expect({ path, key, body: res.data as unknown }).toEqual({ path, key, body: { code: -507, message: 'InvalidHubPartnerException: missing or wrong X-Partner-Key' } });
          expect({ path, key, compared: compare.mock.calls.length > 0 }).toEqual({ path, key, compared: true });
        }
        expect((await call(path, undefined)).data).toMatchObject({ code: -507 });
        expect((await call(path, h.partnerKey)).data).toMatchObject({ code: 0 });
      }
      compare.mockClear();
      const control = await axios.get(`${h.sandbox.url}/_sandbox/info`, { headers: { 'X-Partner-Key': sameLength }, validateStatus: () => true });
      expect([control.status, control.data]).toEqual([401, { ok: false, code: 'UNAUTHORIZED', message: 'missing or wrong X-Partner-Key' }]);
      expect(compare).toHaveBeenCalled();
    } finally {
      compare.mockRestore();
    }
  });

  it.each([
    ['NUL', 'a%00b'],
    ['ESC', 'a%1Bb'],
    ['DEL', 'a%7Fb'],
    ['a C1 control', 'a%C2%85b'],
  ])('refuses a customer key with %s in the control API with 400 BAD_REQUEST naming userKey', async (_what, encoded) => {
    const headers = { 'X-Partner-Key': h.partnerKey };
    const writes = await axios.post(`${h.sandbox.url}/_sandbox/customers/${encoded}/messages`, { senderKey: KAKAO, text: 'x' }, { headers, validateStatus: () => true });
    expect([writes.status, writes.data]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'userKey must not contain control characters' }]);
    const chat = await axios.get(`${h.sandbox.url}/_sandbox/customers/${encoded}/chat?senderKey=${KAKAO}`, { headers, validateStatus: () => true });
    expect([chat.status, chat.data]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: 'userKey must not contain control characters' }]);
  });
});
