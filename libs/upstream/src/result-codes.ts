import { upstreamCodeName } from '@brandwire/domain';

/**
 * The messenger's result codes as the partner API sends them (numbers on sends, '0000' on uploads).
 * The sandbox answers with numbers, as the messenger does; the domain lib's UpstreamCode holds the same codes as
 * the strings clients compare.
 */
export const Code = {
  Ok: 0,
  Forbidden: -400,
  Unauthorized: -500,
  InvalidSender: -501,
  InvalidSession: -502,
  InvalidUserKey: -503,
  DuplicateSerialNumber: -504,
  InvalidImage: -505,
  MessageLengthOverLimit: -506,
  InvalidHubPartner: -507,
  InvalidProfileChatStatus: -508,
  InvalidJson: -509,
  InvalidMessage: -510,
  BlockedUserMessage: -511,
  ContractNotFound: -512,
  FailedToSendMessage: -600,
  InternalSystemError: -601,
} as const;
export type CodeValue = (typeof Code)[keyof typeof Code];

/** Success code of the upload calls (a string on the wire). */
export const UPLOAD_OK = '0000';

/** -502 -> 'InvalidSessionException' (the names of the domain lib). */
export function exceptionNameOf(code: number | string): string {
  return upstreamCodeName(String(code));
}
