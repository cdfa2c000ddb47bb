import { HeldConsents } from './held-consents';

describe('HeldConsents', () => {
  it("tells a customer's lowest held seq, per channel and customer, until each is released", () => {
    const consents = new HeldConsents();
    const released: string[] = [];
    consents.onReleased((channelKey) => released.push(channelKey));
    const first = consents.hold('acme-kakao', 'u1', 25);
    const second = consents.hold('acme-kakao', 'u1', 30);
    expect(consents.firstHeld('acme-kakao', 'u1')).toBe(25);
    expect(consents.firstHeld('acme-kakao', 'u2')).toBeUndefined();
    expect(consents.firstHeld('acme-naver', 'u1')).toBeUndefined();
    first();
    first();
    expect(consents.firstHeld('acme-kakao', 'u1')).toBe(30);
    second();
    expect(consents.firstHeld('acme-kakao', 'u1')).toBeUndefined();
    // a release said twice is told once
    expect(released).toEqual(['acme-kakao', 'acme-kakao']);
  });
});
