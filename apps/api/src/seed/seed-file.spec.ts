import { SeedError, parseSeed } from './seed-file';

const TOKEN = 'a-long-random-token-1';
const OTHER_TOKEN = 'a-long-random-token-2';

function channel(key: string): Record<string, unknown> {
  return { key, type: 'kakao' };
}

const parse = (seed: unknown) => () => parseSeed(JSON.stringify(seed));

describe('parseSeed', () => {
  it('reads the README example', () => {
    const seed = parseSeed(
      JSON.stringify({
        brands: [
          {
            id: 'acme',
            name: 'Acme',
            channels: [
              { key: 'acme-kakao', name: 'Acme Kakao', type: 'kakao', chatbotBuilder: true, plan: { consultations: 1000 } },
              { key: 'acme-naver', name: 'Acme Naver', type: 'naver', plan: { consultations: 1000 } },
            ],
          },
        ],
        keys: [{ token: 'a-long-random-token', name: 'ops', scope: 'Admin', brands: ['acme'] }],
      })
    );
    expect(seed.brands[0]?.channels.map((c) => c.key)).toEqual(['acme-kakao', 'acme-naver']);
    expect(seed.keys[0]).toEqual({ token: 'a-long-random-token', name: 'ops', scope: 'Admin', brands: ['acme'] });
  });

  it('takes an empty seed', () => {
    expect(parseSeed('{}')).toEqual({ brands: [], keys: [] });
  });

  it('passes over annotations: fields starting with $ or _ ($schema, _comment) at any level', () => {
    const annotated = { $schema: './seed.schema.json', _comment: 'staging', brands: [{ id: 'a', _note: 'x', channels: [{ ...channel('a-kakao'), $id: 'c' }] }] };
    expect(parseSeed(JSON.stringify(annotated)).brands.map((b) => [b.id, b.channels.map((c) => c.key)])).toEqual([['a', ['a-kakao']]]);
  });

  it.each([
    [{ kyes: [] }, 'kyes is not a field of the seed (its fields: brands, keys)'],
    [{ brands: [{ id: 'a', chanels: [channel('a-kakao')] }] }, 'brands[0].chanels is not a field of a brand (its fields: id, name, channels)'],
    [{ brands: [{ id: 'a', channels: [{ ...channel('a-kakao'), chatbot: true }] }] }, 'brands[0].channels[0].chatbot is not a field of a channel (its fields: key, name, type, chatbotBuilder, plan)'],
    [{ brands: [{ id: 'a', channels: [{ ...channel('a-kakao'), plan: { consultation: 5 } }] }] }, 'brands[0].channels[0].plan.consultation is not a field of a plan (its fields: consultations)'],
    [{ keys: [{ token: TOKEN, name: 'ops', scope: 'Admin', brand: ['a'] }] }, 'keys[0].brand is not a field of a key (its fields: token, name, scope, brands)'],
  ])('refuses an unknown field, naming its JSON path: %j', (seed, message) => {
    expect(parse(seed)).toThrow(new SeedError(message));
  });

  it('refuses a key listing a brand twice', () => {
    expect(parse({ brands: [{ id: 'a' }], keys: [{ token: TOKEN, name: 'ops', scope: 'Admin', brands: ['a', 'a'] }] })).toThrow(new SeedError('keys[0].brands lists "a" twice'));
  });

  it('refuses two keys of one token, without showing the token', () => {
    const keys = [
      { token: OTHER_TOKEN, name: 'ops', scope: 'Admin', brands: [] },
      { token: TOKEN, name: 'ops', scope: 'Admin', brands: [] },
      { token: TOKEN, name: 'agent', scope: 'BrandWrite', brands: [] },
    ];
    expect(parse({ keys })).toThrow(new SeedError('keys[2].token is the token of keys[1] too: each key needs a token of its own'));
  });

  it('refuses two brands of one id, and two channels of one key', () => {
    expect(parse({ brands: [{ id: 'a' }, { id: 'b' }, { id: 'a' }] })).toThrow(new SeedError('brands[2].id "a" is the id of brands[0] too'));
    expect(parse({ brands: [{ id: 'a', channels: [channel('k')] }, { id: 'b', channels: [channel('x'), channel('k')] }] })).toThrow(
      new SeedError('brands[1].channels[1].key "k" is the key of brands[0].channels[0] too'),
    );
  });

  it.each([
    [{ brands: [{ id: 'a', channels: [channel('a-kakao\n')] }] }, 'brands[0].channels[0].key must not contain control characters'],
    [{ brands: [{ id: 'a\u0085' }] }, 'brands[0].id must not contain control characters'],
    [{ keys: [{ token: TOKEN, name: 'ops\t', scope: 'Admin', brands: [] }] }, 'keys[0].name must not contain control characters'],
  ])('refuses an identifier with control characters, as the API does: %j', (seed, message) => {
    expect(parse(seed)).toThrow(new SeedError(message));
  });
});
