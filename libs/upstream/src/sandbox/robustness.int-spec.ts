import axios from 'axios';
import { SandboxHarness } from '../testing/harness';
import { KAKAO, customerSays, serial, startHarness } from '../test-support/fixtures';

const PARTNER_PATHS = [
  '/v1/write',
  '/v1/rich',
  '/v1/end',
  '/v1/end_with_bot',
  '/v1/block',
  '/v1/unblock',
  '/v1/chat/activate',
  '/v1/chat/deactivate',
  '/v1/delete',
  '/v1/personal_info/request',
];
const CONTROL_POSTS = ['messages', 'end', 'consent', 'tap', 'delete-by-other-tool'].map((p) => `/_sandbox/customers/fuzz/${p}`);

const nasty: unknown[] = [
  null,
  'text',
  42,
  [],
  [{ user_key: 'u' }],
  {},
  { user_key: 1, sender_key: 2, serial_number: {}, message_type: [], message: null },
  { user_key: 'fuzz', sender_key: KAKAO, serial_number: 'x'.repeat(31) },
  { user_key: 'fuzz', sender_key: KAKAO, serial_number: 'f1', message_type: 'LI', message: 'x', links: 'nope', supplement: [] },
  { user_key: 'fuzz', sender_key: KAKAO, serial_number: 'f2', chat_bubble_type: 'CAROUSEL_FEED', carousel: { list: [null, 1, 'a'] } },
  { user_key: 'fuzz', sender_key: KAKAO, serial_number: 'f3', chat_bubble_type: 'TEXT', attachment: { buttons: [null], quick_replies: {} } },
  { senderKey: KAKAO, text: 5, attachments: [{ type: 'photo', caption: 7 }], reference: 'x', serial: 1, quickReply: -1 },
  { senderKey: KAKAO, attachments: 'all', nickname: '', phoneNumber: [] },
  { __proto__: { polluted: true }, constructor: { prototype: { polluted: true } } },
];

describe('sandbox robustness', () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    h = await startHarness();
    await customerSays(h, 'fuzz', 'hello');
  });
  afterAll(async () => {
    await h.close();
  });

  const headers = { 'X-Partner-Key': 'test-partner-key', 'Content-Type': 'application/json' };

  it('answers every bad input with a JSON error and no stack trace, on both lanes', async () => {
    const paths = [...PARTNER_PATHS, ...PARTNER_PATHS.map((p) => `${p}?lane=express`), ...CONTROL_POSTS, '/_sandbox/clock', '/_sandbox/partner'];
    for (const path of paths) {
      for (const body of nasty) {
        const method = path === '/_sandbox/partner' ? 'PUT' : 'POST';
        const res = await axios.request({ method, url: h.sandbox.url + path, data: JSON.stringify(body), headers, validateStatus: () => true, transformRequest: [(d: unknown) => d] });
        const text = JSON.stringify(res.data);
        expect({ path, status: res.status < 500, json: typeof res.data === 'object' }).toEqual({ path, status: true, json: true });
        expect(text).not.toMatch(/\n\s+at |\.ts:\d+/);
      }
    }
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    // still serving (the fuzz may have deactivated the chat and blocked the customer: undo that)
    await h.messenger.activateChat(KAKAO);
    await h.messenger.unblock({ senderKey: KAKAO, userKey: 'fuzz' });
    await customerSays(h, 'fuzz', 'hello again');
    await expect(h.messenger.writeText({ senderKey: KAKAO, userKey: 'fuzz', serialNumber: serial(), message: 'still fine' })).resolves.toMatchObject({ code: '0' });
  });

  it('both lanes give the same answers', async () => {
    const body = { user_key: 'fuzz', sender_key: KAKAO, serial_number: serial(), message_type: 'TX', message: 'a'.repeat(1001) };
    const fast = await axios.post(`${h.sandbox.url}/v1/write`, body, { headers });
    const viaExpress = await axios.post(`${h.sandbox.url}/v1/write?lane=express`, body, { headers });
    expect(viaExpress.data).toEqual(fast.data);
    expect(fast.data).toEqual({ code: -506, message: 'MessageLengthOverLimitException: message is longer than 1000 characters' });
    const noKey = await axios.post(`${h.sandbox.url}/v1/write?lane=express`, body);
    expect(noKey.data).toMatchObject({ code: -507 });
  });

  it('serves many concurrent partner calls', async () => {
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => h.messenger.writeText({ senderKey: KAKAO, userKey: 'fuzz', serialNumber: `load-${i}`, message: `n${i}` })),
    );
    expect(results.filter((r) => r.code === '0')).toHaveLength(1000);
  });
});
