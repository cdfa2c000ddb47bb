import { ApiError } from '@brandwire/client';
import { CliError } from './cli-error';
import { sendTimedOut } from './send-timeout';

const send = {
  brandKey: 'acme-kakao',
  userKey: 'ann',
  idempotencyKey: 'k-1',
  repeat: ['brandwire', 'send', '--channel', 'acme-kakao', '--to', 'ann', '--text', "it's here", '--idempotency-key', 'k-1'],
};

describe('sendTimedOut', () => {
  it('gives the safe repeat for the service 502 UPSTREAM_UNAVAILABLE (the messenger did not answer)', () => {
    const failure = sendTimedOut(new ApiError(502, 'UPSTREAM_UNAVAILABLE', 'the messenger could not be reached: timeout'), send);
    expect(failure).toBeInstanceOf(CliError);
    expect({ ...(failure as CliError), message: (failure as CliError).message }).toMatchObject({
      code: 'UPSTREAM_UNAVAILABLE',
      message: 'the messenger could not be reached: timeout',
      details: { status: 502, brandKey: 'acme-kakao', userKey: 'ann', idempotencyKey: 'k-1' },
      hint: "the messenger may have delivered it; sending it again with its key is safe (the service sends the same serial again, and the customer gets it once): brandwire send --channel acme-kakao --to ann --text 'it'\\''s here' --idempotency-key k-1",
    });
  });

  it('returns the other refusals of the service as they are', () => {
    const refusal = new ApiError(402, 'PLAN_EXHAUSTED', 'the plan is used up');
    expect(sendTimedOut(refusal, send)).toBe(refusal);
  });
});
