import { CONSENT_VALIDITY_MS, consentRequestCheck } from './consent';

describe('spec "States and transitions": consent rows', () => {
  it('not requested + request on a Kakao-type channel -> requested', () => {
    expect(consentRequestCheck('not_requested', 'kakao')).toEqual({ ok: true, next: 'requested' });
  });

  it('requested + request in the same session -> -520', () => {
    const result = consentRequestCheck('requested', 'kakao');
    expect(result).toMatchObject({ ok: false, code: '-520' });
    expect(result).toHaveProperty('message', expect.stringContaining('already requested in this session'));
  });
});

describe('consentRequestCheck', () => {
  it.each([
    ['not_requested', 'line'],
    ['requested', 'line'],
    ['not_requested', 'Kakao'],
    ['not_requested', ''],
  ] as const)('%s on channel type %p -> UNSUPPORTED_CHANNEL', (state, channelType) => {
    expect(consentRequestCheck(state, channelType)).toMatchObject({ ok: false, code: 'UNSUPPORTED_CHANNEL' });
  });
});

describe('CONSENT_VALIDITY_MS', () => {
  it('is 3 days', () => {
    expect(CONSENT_VALIDITY_MS).toBe(3 * 24 * 3_600_000);
  });
});
