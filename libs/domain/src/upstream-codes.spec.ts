import { UpstreamCode, isUpstreamSuccess, upstreamCodeName } from './upstream-codes';

describe('UpstreamCode', () => {
  it('holds the codes as strings', () => {
    expect(UpstreamCode.InvalidSession).toBe('-502');
    expect(UpstreamCode.BlockedUserMessage).toBe('-511');
    expect(UpstreamCode.ConsentAlreadyRequested).toBe('-520');
    expect(Object.values(UpstreamCode).every((c) => typeof c === 'string')).toBe(true);
  });
});

describe('upstreamCodeName', () => {
  it.each([
    ['-400', 'ForbiddenException'],
    ['-500', 'UnauthorizedException'],
    ['-501', 'InvalidSenderException'],
    ['-502', 'InvalidSessionException'],
    ['-503', 'InvalidUserKeyException'],
    ['-504', 'DuplicateSerialNumberException'],
    ['-505', 'InvalidImageException'],
    ['-506', 'MessageLengthOverLimitException'],
    ['-507', 'InvalidHubPartnerException'],
    ['-508', 'InvalidProfileChatStatusException'],
    ['-509', 'InvalidJsonException'],
    ['-510', 'InvalidMessageException'],
    ['-511', 'BlockedUserMessageException'],
    ['-512', 'ContractNotFoundException'],
    ['-520', 'ConsentAlreadyRequestedException'],
    ['-600', 'FailedToSendMessageException'],
    ['-601', 'InternalSystemErrorException'],
    ['0', 'Success'],
    ['0000', 'Success'],
    ['-999', 'UnknownUpstreamCode'],
    ['502', 'UnknownUpstreamCode'],
    ['', 'UnknownUpstreamCode'],
  ])('%p -> %s', (code, name) => {
    expect(upstreamCodeName(code)).toBe(name);
  });
});

describe('isUpstreamSuccess', () => {
  it.each([
    [0, true],
    ['0', true],
    ['0000', true],
    [-502, false],
    ['-502', false],
    ['00', false],
    ['', false],
    [1, false],
  ])('%p -> %p', (code, ok) => {
    expect(isUpstreamSuccess(code)).toBe(ok);
  });
});
