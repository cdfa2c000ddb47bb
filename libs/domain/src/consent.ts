/** Personal-info consent request: Kakao-type channels only, once per consultation session. */
export type ConsentState = 'not_requested' | 'requested';

/**
 * The consent bubble as the customer's chat shows it, its button in brackets: text and button are the messenger's,
 * fixed whatever a request asks, and the journal records the same words.
 */
export const CONSENT_BUBBLE_TEXT = 'The agent asks for your nickname and phone number. [Agree]';

export const CONSENT_VALIDITY_MS: number = 3 * 24 * 60 * 60 * 1000;

/** The answer to a second request in the same consultation. */
export const CONSENT_ALREADY_REQUESTED = {
  code: '-520',
  message: 'Personal-info consent was already requested in this session; it can be requested again after the customer starts a new consultation.',
} as const;

export function consentRequestCheck(
  state: ConsentState,
  channelType: string,
): { ok: true; next: 'requested' } | { ok: false; code: 'UNSUPPORTED_CHANNEL' | '-520'; message: string } {
  if (channelType !== 'kakao') {
    return {
      ok: false,
      code: 'UNSUPPORTED_CHANNEL',
      message: `Personal-info consent can only be requested on Kakao-type channels (this channel is '${channelType}').`,
    };
  }
  if (state === 'requested') {
    return { ok: false, ...CONSENT_ALREADY_REQUESTED };
  }
  return { ok: true, next: 'requested' };
}
