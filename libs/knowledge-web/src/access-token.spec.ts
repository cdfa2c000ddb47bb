import { PageAccess } from './access-token';

describe('PageAccess', () => {
  it('keeps the 1,000 sessions used last: one in use outlives newer ones that are not', () => {
    const access = new PageAccess();
    const first = access.openSession();
    const second = access.openSession();
    for (let i = 0; i < 998; i += 1) access.openSession();
    expect(access.hasSession(first)).toBe(true);
    access.openSession();
    expect(access.hasSession(first)).toBe(true);
    expect(access.hasSession(second)).toBe(false);
  });

  it('lets a sign-in code in once', () => {
    const access = new PageAccess();
    const code = access.mintCode();
    expect(access.redeem(code)).toBe(true);
    expect(access.redeem(code)).toBe(false);
    expect(access.redeem('made-up')).toBe(false);
  });
});
