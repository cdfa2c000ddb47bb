import { keywordsOf, leadingKeyword, parameterNames, splitStatements } from './cypher-text';

describe('splitStatements', () => {
  it.each([
    ['a; b; c', ['a', 'b', 'c']],
    ['RETURN 1;', ['RETURN 1']],
    ["RETURN 'x;y' AS s; RETURN 2", ["RETURN 'x;y' AS s", 'RETURN 2']],
    ['RETURN "a\\";b"; RETURN 3', ['RETURN "a\\";b"', 'RETURN 3']],
    ['MATCH (`odd;name`) RETURN 1', ['MATCH (`odd;name`) RETURN 1']],
    ['RETURN 1 // not; split\n; RETURN 2', ['RETURN 1 // not; split', 'RETURN 2']],
    ['RETURN 1 /* a; b */; RETURN 2', ['RETURN 1 /* a; b */', 'RETURN 2']],
    [' ; ;\n', []],
  ])('%j', (text, expected) => {
    expect(splitStatements(text)).toEqual(expected);
  });
});

describe('parameterNames', () => {
  it('finds $names outside strings and comments, once each', () => {
    expect(parameterNames("MATCH (c {id: $id}) WHERE c.x = $id AND c.y = '$notOne' // $nor\nRETURN $limit_2")).toEqual(['id', 'limit_2']);
  });

  it('ignores a lone $', () => {
    expect(parameterNames("RETURN '$' + $ AS x")).toEqual([]);
  });
});

describe('leadingKeyword', () => {
  it.each([
    ['MATCH (n) RETURN n', 'MATCH'],
    ['  copy (RETURN 1) TO "x.csv"', 'COPY'],
    ['// a note\n/* and more */ Export DATABASE "d"', 'EXPORT'],
    ['PROFILE COPY (RETURN 1) TO "x.csv"', 'COPY'],
    ['explain /* plan */ install json', 'INSTALL'],
    ['PROFILE', ''],
    ['(RETURN 1)', ''],
    ['', ''],
  ])('%j -> %j', (statement, keyword) => {
    expect(leadingKeyword(statement)).toBe(keyword);
  });
});

describe('keywordsOf', () => {
  it.each([
    ["UNWIND [1] AS x LOAD FROM 'f' RETURN *", ['UNWIND', 'AS', 'X', 'LOAD', 'FROM', 'RETURN']],
    ["RETURN 'load' AS `copy`, n.export, n . install // attach\n", ['RETURN', 'AS', 'N']],
    ['RETURN 1e5 /* load */ AS big', ['RETURN', 'AS', 'BIG']],
    ["WITH 1 AS x LIMIT 1LOAD FROM 'f' RETURN *", ['WITH', 'AS', 'X', 'LIMIT', 'LOAD', 'FROM', 'RETURN']],
    ['RETURN 0x1F, 2.5e-3 AS n', ['RETURN', 'AS', 'N']],
  ])('%s', (statement, words) => {
    expect([...keywordsOf(statement)]).toEqual(words);
  });
});
