import { brandsOfNewKey } from './key-brands';

const me = {
  brands: [
    { id: 'acme', channels: [{ key: 'acme-kakao' }, { key: 'acme-naver' }] },
    { id: 'globex', channels: [{ key: 'globex-kakao' }] },
  ],
};

describe('brandsOfNewKey', () => {
  it('gives every brand of the key without --brand, and the brand ids given as they are', () => {
    expect(brandsOfNewKey(undefined, me)).toEqual(['acme', 'globex']);
    expect(brandsOfNewKey(['globex'], me)).toEqual(['globex']);
    // one this key lacks is the service's to refuse
    expect(brandsOfNewKey(['initech'], me)).toEqual(['initech']);
  });

  it('refuses a channel key, naming its brand', () => {
    expect(() => brandsOfNewKey(['acme', 'globex-kakao'], me)).toThrow(
      expect.objectContaining({ code: 'USAGE', exit: 2, message: '--brand globex-kakao is a channel key, not a brand id: keys are made for brands, and globex-kakao belongs to brand globex' }),
    );
  });
});
