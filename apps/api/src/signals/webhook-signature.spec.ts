import { signWebhook, verifyWebhook, webhookHeaders } from './webhook-signature';

// The example of the Standard Webhooks specification.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const ID = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
const TIMESTAMP = 1614265330;
const BODY = '{"test": 2432232314}';

describe('Standard Webhooks signature', () => {
  it('matches the specification example', () => {
    expect(signWebhook(SECRET, ID, TIMESTAMP, BODY)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('verifies its own headers and refuses a changed body or another secret', () => {
    const headers = webhookHeaders(SECRET, ID, TIMESTAMP, BODY);
    expect(verifyWebhook(SECRET, ID, TIMESTAMP, BODY, headers['webhook-signature'] ?? '')).toBe(true);
    expect(verifyWebhook(SECRET, ID, TIMESTAMP, `${BODY} `, headers['webhook-signature'] ?? '')).toBe(false);
    expect(verifyWebhook('whsec_AAAAAAAA', ID, TIMESTAMP, BODY, headers['webhook-signature'] ?? '')).toBe(false);
  });
});
