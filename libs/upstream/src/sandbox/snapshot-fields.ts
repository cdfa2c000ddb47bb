import { Obj, isObj } from './button-rules';

/** A line of the state file that is not what this sandbox writes; `message` says where (`customer.blocked ...`). */
export class ShapeError extends Error {}

/** Typed reads of the fields of an object of a state file line, each failing with a ShapeError naming its path ('' for the line itself). */
export class Fields {
  private constructor(
    private readonly o: Obj,
    private readonly path: string,
  ) {}

  static of(v: unknown, path: string): Fields {
    if (!isObj(v)) throw new ShapeError(`${path === '' ? 'the line' : path} is not an object`);
    return new Fields(v, path);
  }

  has(key: string): boolean {
    return Object.hasOwn(this.o, key);
  }

  string(key: string): string {
    return this.check(key, (v): v is string => typeof v === 'string', 'a text');
  }

  number(key: string): number {
    return this.check(key, (v): v is number => typeof v === 'number' && Number.isFinite(v), 'a number');
  }

  boolean(key: string): boolean {
    return this.check(key, (v): v is boolean => typeof v === 'boolean', 'true or false');
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T {
    return this.check(key, (v): v is T => values.includes(v as T), `one of ${values.join(', ')}`);
  }

  stringOrNull(key: string): string | null {
    return this.o[key] === null ? null : this.string(key);
  }

  /** A JSON object kept as it is (a session's reference, a quick reply). */
  record(key: string): Obj {
    return this.check(key, isObj, 'an object');
  }

  object(key: string): Fields {
    return Fields.of(this.o[key], this.at(key));
  }

  objectOrNull(key: string): Fields | null {
    return this.o[key] === null ? null : this.object(key);
  }

  list<T>(key: string, item: (v: unknown, path: string) => T): T[] {
    const v = this.check(key, (x): x is unknown[] => Array.isArray(x), 'a list');
    return v.map((x, i) => item(x, `${this.at(key)}[${i}]`));
  }

  raw(key: string): unknown {
    return this.o[key];
  }

  private check<T>(key: string, is: (v: unknown) => v is T, what: string): T {
    const v = this.o[key];
    if (!is(v)) throw new ShapeError(`${this.at(key)} is not ${what}`);
    return v;
  }

  private at(key: string): string {
    return this.path === '' ? key : `${this.path}.${key}`;
  }
}

export function textItem(v: unknown, path: string): string {
  if (typeof v !== 'string') throw new ShapeError(`${path} is not a text`);
  return v;
}

export function objectItem(v: unknown, path: string): Obj {
  if (!isObj(v)) throw new ShapeError(`${path} is not an object`);
  return v;
}
