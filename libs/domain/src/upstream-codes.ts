/** The messenger's result codes, as strings (clients compare them as strings). */
export const UpstreamCode = {
  Ok: '0',
  Forbidden: '-400',
  Unauthorized: '-500',
  InvalidSender: '-501',
  InvalidSession: '-502',
  InvalidUserKey: '-503',
  DuplicateSerialNumber: '-504',
  InvalidImage: '-505',
  MessageLengthOverLimit: '-506',
  InvalidHubPartner: '-507',
  InvalidProfileChatStatus: '-508',
  InvalidJson: '-509',
  InvalidMessage: '-510',
  BlockedUserMessage: '-511',
  ContractNotFound: '-512',
  ConsentAlreadyRequested: '-520',
  FailedToSendMessage: '-600',
  InternalSystemError: '-601',
} as const;

export type UpstreamCodeValue = (typeof UpstreamCode)[keyof typeof UpstreamCode];

const NAME_BY_CODE: ReadonlyMap<string, string> = new Map<string, string>(
  Object.entries(UpstreamCode)
    .filter(([, code]) => code !== UpstreamCode.Ok)
    .map(([key, code]) => [code, `${key}Exception`]),
);

/** Success codes: the number 0 on sends, the string "0000" on uploads. */
export function isUpstreamSuccess(code: string | number): boolean {
  if (typeof code === 'number') return code === 0;
  return code === '0' || code === '0000';
}

/** '-502' -> 'InvalidSessionException'; success codes -> 'Success'; anything else -> 'UnknownUpstreamCode'. */
export function upstreamCodeName(code: string): string {
  if (isUpstreamSuccess(code)) return 'Success';
  return NAME_BY_CODE.get(code) ?? 'UnknownUpstreamCode';
}
