import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { imageDir, writePng } from '../../media/test-support/images';
import { type RawPart, rawMultipart, textPart } from '../../test-support/raw-multipart';
import { ServiceHarness, TOKENS } from '../../test-support/service-harness';

/**
 * Bad input always gets a clear refusal: for every operation of the OpenAPI document, requests malformed from its
 * schema (one field at a time, then the body, content type, path and headers) must answer within 10 s, with a
 * 4xx, in the envelope `{ ok:false, code, message }`, and without a stack trace. Variants that are merely odd
 * (a long free text, control characters in a message) may be accepted, but never with a 5xx.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Schema {
  type?: string;
  format?: string;
  enum?: Json[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  example?: Json;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  allOf?: Schema[];
  $ref?: string;
}

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: Schema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  /** the body's media types and the schema of its first one */
  body?: { types: string[]; schema: Schema };
}

interface OpenApiDocument {
  paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
}

/** One malformed request, and whether the service may take it (it is odd, not wrong); it must never fail it. */
interface Probe {
  route: string;
  variant: string;
  mayAccept: boolean;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const LONG = 'x'.repeat(100_000);
const CONTROL = 'a\u0000b\u0007c\u001bd\u007fe\u0085f';
const LONE_SURROGATE = 'a\ud800b';
const USER = 'sweep-user';
const STACK_TRACE = /\n\s+at |\s{4}at \S|\.[cm]?[jt]s:\d+/;
const METHODS = ['get', 'post', 'put', 'delete', 'patch'];
/**
 * Routes that turn the channel's chat off, move the sandbox's clock or make its messenger fail: probed last, one at
 * a time, so that the other probes reach as far into the service as their input lets them.
 */
const AFTERWARDS = /^\/(sandbox\/(clock|faults)|api\/agent\/settings\/chat\/deactivate)$/;

/** A valid value for a field, so that each probe is wrong in one place only. */
const BASELINE: Record<string, Json> = {
  brandKey: 'acme-kakao',
  brand: 'acme-kakao',
  userKey: USER,
  text: 'hello',
  greeting: 'bye',
  botEvent: 'welcome',
  serial: 'bw-1-none',
  imageUrl: 'https://example.com/a.png',
  url: 'http://127.0.0.1:9/hook',
  consultations: 1000,
  brands: ['acme'],
  scope: 'BrandRead',
  name: 'sweep',
  user_code: 'BCDF-GHJK',
  device_code: 'none',
  withinSeconds: 180,
  advanceSeconds: 1,
  times: 1,
  reference: {},
};

/** The rich envelope is JSON inside a string: its own malformed shapes, which the messenger may refuse (HTTP 200, ok:false). */
const RICH_VARIANTS: Array<[string, string, boolean]> = [
  ['JSON that is not an object', '[1]', false],
  ['JSON null', 'null', false],
  ['a server-filled field', '{"chat_bubble_type":"TEXT","message":"x","user_key":"u"}', false],
  ['a __proto__ key', '{"chat_bubble_type":"TEXT","message":"x","__proto__":{"a":1}}', false],
  ['a lone surrogate inside', '{"chat_bubble_type":"TEXT","message":"\\ud800"}', false],
  ['chat_bubble_type a number', '{"chat_bubble_type":5,"message":"x"}', false],
  ['an unknown chat_bubble_type', '{"chat_bubble_type":"NOPE","message":"x"}', true],
  ['message a number', '{"chat_bubble_type":"TEXT","message":5}', true],
  ['neither message nor attachment', '{"chat_bubble_type":"TEXT"}', true],
  ['attachment a string', '{"chat_bubble_type":"TEXT","message":"x","attachment":"x"}', true],
  ['attachment a list', '{"chat_bubble_type":"TEXT","message":"x","attachment":[1]}', true],
  ['quick_replies a string', '{"chat_bubble_type":"TEXT","message":"x","attachment":{"quick_replies":"x"}}', true],
  ['quick_replies holding null', '{"chat_bubble_type":"TEXT","message":"x","attachment":{"quick_replies":[null,5]}}', true],
  ['a quick reply of wrong types', '{"chat_bubble_type":"TEXT","message":"x","attachment":{"quick_replies":[{"name":5,"type":[],"url_mobile":{}}]}}', true],
  ['buttons holding null', '{"chat_bubble_type":"TEXT","message":"x","attachment":{"buttons":[null,"x"]}}', true],
  ['a button of wrong types', '{"chat_bubble_type":"TEXT","message":"x","attachment":{"buttons":[{"type":"WL","name":[],"url_pc":5,"url_mobile":{}}]}}', true],
  ['image a string', '{"chat_bubble_type":"IMAGE","attachment":{"image":"x"}}', true],
  ['img_url a number', '{"chat_bubble_type":"WIDE","message":"x","attachment":{"image":{"img_url":5}}}', true],
  ['carousel a string', '{"chat_bubble_type":"CAROUSEL_FEED","attachment":{"carousel":"x"}}', true],
  ['carousel cards of wrong types', '{"chat_bubble_type":"CAROUSEL_FEED","attachment":{"carousel":{"list":[null,5,{"buttons":"x"}]}}}', true],
  ['item a number', '{"chat_bubble_type":"WIDE_ITEM_LIST","attachment":{"item":5}}', true],
  ['item list holding null', '{"chat_bubble_type":"WIDE_ITEM_LIST","attachment":{"item":{"list":[null]}}}', true],
  ['coupon a number', '{"chat_bubble_type":"TEXT","message":"x","attachment":{"coupon":5}}', true],
  ['auto_answer a number', '{"chat_bubble_type":"TEXT","message":"x","auto_answer":5}', true],
  ['message of 100,000 characters', `{"chat_bubble_type":"TEXT","message":"${'x'.repeat(100_000)}"}`, true],
];

function resolved(schema: Schema, document: OpenApiDocument, depth = 0): Schema {
  const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0]?.$ref : undefined);
  const target: Schema = ref === undefined ? schema : { ...(document.components.schemas[ref.split('/').pop() ?? ''] ?? {}), ...(schema.example !== undefined ? { example: schema.example } : {}), ...(schema.nullable ? { nullable: true } : {}) };
  if (ref !== undefined) target.type ??= 'object';
  if (depth > 4) return target;
  return {
    ...target,
    ...(target.items ? { items: resolved(target.items, document, depth + 1) } : {}),
    ...(target.properties ? { properties: Object.fromEntries(Object.entries(target.properties).map(([name, field]) => [name, resolved(field, document, depth + 1)])) } : {}),
  };
}

function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => {
        const content = operation.requestBody?.content ?? {};
        const [first] = Object.values(content);
        return {
          method: method.toUpperCase(),
          path,
          parameters: operation.parameters ?? [],
          ...(first ? { body: { types: Object.keys(content), schema: resolved(first.schema, document) } } : {}),
        };
      }),
  );
}

function validObject(schema: Schema): Record<string, Json> {
  return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, field]) => [name, baselineOf(name, field)]));
}

function baselineOf(name: string, schema: Schema): Json {
  if (name in BASELINE) return BASELINE[name] ?? null;
  if (schema.example !== undefined) return schema.example;
  if (schema.enum?.[0] !== undefined) return schema.enum[0];
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  if (schema.type === 'array') return schema.items?.properties ? [validObject(schema.items)] : [];
  if (schema.type === 'object') return validObject(schema);
  return 'x';
}

/** Wrong JSON types for a field: a value of every other type. */
function wrongTypes(schema: Schema): Array<[string, Json]> {
  const all: Array<[string, string, Json]> = [
    ['string', 'a string', 'x'],
    ['number', 'a number', 12345],
    ['boolean', 'a boolean', true],
    ['object', 'an object', { a: 'x' }],
    ['array', 'an array', ['x']],
  ];
  const own = schema.type === 'integer' ? 'number' : (schema.type ?? 'object');
  const wrong: Array<[string, Json]> = all.filter(([type]) => type !== own).map(([, label, value]) => [label, value]);
  if (schema.type === 'array') wrong.push(['an array of numbers', [1, 2]]);
  return wrong;
}

/** Values of the right type that the schema's bounds, format or choices rule out (or that are merely odd). */
function outOfShape(schema: Schema): Array<[string, Json, boolean]> {
  if (schema.enum) return [['a value not among its choices', 'not-a-choice', false]];
  if (schema.type === 'string') {
    return [
      ['a 100,000-character string', LONG, schema.maxLength === undefined],
      ['control characters', CONTROL, true],
      ['a lone UTF-16 surrogate', LONE_SURROGATE, false],
      ['an empty string', '', (schema.minLength ?? 0) === 0],
    ];
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    const integer = schema.type === 'integer';
    return [
      ['1e308', 1e308, schema.maximum === undefined && !integer],
      ['-1', -1, schema.minimum === undefined || schema.minimum <= -1],
      ['0.5', 0.5, !integer && (schema.minimum === undefined || schema.minimum <= 0.5)],
      ['2^53 + 2', 2 ** 53 + 2, schema.maximum === undefined && !integer],
    ];
  }
  return [];
}

/** A field's malformed values: `value` undefined means the field left out. Objects and lists of objects are probed inside too. */
interface FieldVariant {
  label: string;
  value: Json | undefined;
  mayAccept: boolean;
}

function fieldVariants(name: string, schema: Schema, required: boolean, baseline: Json, depth = 0): FieldVariant[] {
  const variants: FieldVariant[] = wrongTypes(schema).map(([label, value]) => ({ label: `${name}: ${label}`, value, mayAccept: false }));
  variants.push({ label: `${name}: null`, value: null, mayAccept: !required || schema.nullable === true });
  if (required) variants.push({ label: `${name}: missing`, value: undefined, mayAccept: false });
  for (const [label, value, mayAccept] of outOfShape(schema)) variants.push({ label: `${name}: ${label}`, value, mayAccept });
  if (name === 'rich') for (const [label, value, mayAccept] of RICH_VARIANTS) variants.push({ label: `rich: ${label}`, value, mayAccept });
  if (depth > 3) return variants;
  const inner = schema.type === 'array' ? schema.items : schema;
  if (!inner?.properties) return variants;
  const base = (schema.type === 'array' ? (Array.isArray(baseline) ? baseline[0] : undefined) : baseline) ?? validObject(inner);
  const object: Record<string, Json> = typeof base === 'object' && base !== null && !Array.isArray(base) ? base : validObject(inner);
  const own = new Set(inner.required ?? []);
  for (const [child, field] of Object.entries(inner.properties)) {
    for (const variant of fieldVariants(child, field, own.has(child), object[child] ?? baselineOf(child, field), depth + 1)) {
      const changed: Record<string, Json> = { ...object };
      if (variant.value === undefined) delete changed[child];
      else changed[child] = variant.value;
      variants.push({ label: `${name}${schema.type === 'array' ? '[0]' : ''}.${variant.label}`, value: schema.type === 'array' ? [changed] : changed, mayAccept: variant.mayAccept });
    }
  }
  variants.push({ label: `${name}${schema.type === 'array' ? '[0]' : ''}: an unknown extra field`, value: schema.type === 'array' ? [{ ...object, sweepExtra: 1 }] : { ...object, sweepExtra: 1 }, mayAccept: false });
  return variants;
}

const route = (operation: Operation): string => `${operation.method} ${operation.path}`;

function pathOf(operation: Operation, override?: [string, string]): string {
  return operation.path.replace(/\{(\w+)\}/g, (_, name: string) => (override?.[0] === name ? override[1] : name === 'userKey' ? USER : 'no-such-id'));
}

function queryOf(operation: Operation, change?: { name: string; raw?: string }): string {
  const pairs = operation.parameters
    .filter((parameter) => parameter.in === 'query' && parameter.name !== change?.name)
    .filter((parameter) => parameter.required)
    .map((parameter) => `${parameter.name}=${encodeURIComponent(String(baselineOf(parameter.name, parameter.schema)))}`);
  if (change?.raw !== undefined) pairs.push(change.raw);
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

const JSON_TYPE = { 'content-type': 'application/json' };

type ProbeBase = Omit<Probe, 'variant' | 'mayAccept'>;

function jsonBodyProbes(operation: Operation, base: ProbeBase): Probe[] {
  const schema = operation.body?.schema ?? {};
  const required = new Set(schema.required ?? []);
  // a route without a documented body has no fields a form could misstate (the pairing start takes RFC 8628's form)
  const takesForm = operation.body?.types.includes('application/x-www-form-urlencoded') ?? true;
  const valid = validObject(schema);
  const probe = (variant: string, mayAccept: boolean, body: string | Buffer, type: Record<string, string> = JSON_TYPE): Probe => ({ ...base, variant, mayAccept, body, headers: { ...base.headers, ...type } });
  const probes: Probe[] = [];
  for (const [name, field] of Object.entries(schema.properties ?? {})) {
    for (const { label, value, mayAccept } of fieldVariants(name, field, required.has(name), valid[name] ?? null)) {
      const body: Record<string, Json> = { ...valid };
      if (value === undefined) delete body[name];
      else body[name] = value;
      probes.push(probe(label, mayAccept, JSON.stringify(body)));
    }
  }
  // a route that documents no body has none to check for unknown fields
  probes.push(probe('an unknown extra field', operation.body === undefined || takesForm, JSON.stringify({ ...valid, sweepExtra: 1 })));
  probes.push(
    probe('body: a JSON array', false, JSON.stringify([valid])),
    probe('body: a bare string', false, JSON.stringify('text')),
    probe('body: null', false, 'null'),
    probe('body: malformed JSON', false, '{"brandKey": "acme-kakao", '),
    probe('body: empty', required.size === 0, ''),
    probe('Content-Type: text/plain', false, JSON.stringify(valid), { 'content-type': 'text/plain' }),
    probe('Content-Type: application/x-www-form-urlencoded', takesForm, 'brandKey=acme-kakao&userKey=x', { 'content-type': 'application/x-www-form-urlencoded' }),
    probe('JSON nested 5,000 levels deep', false, `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`),
    probe('10,000 unknown fields', operation.body === undefined, JSON.stringify({ ...valid, ...Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`f${i}`, i])) })),
    probe('a body over 1 MB', false, JSON.stringify({ ...valid, sweepExtra: 'x'.repeat(1_100_000) })),
    probe('charset latin1', false, JSON.stringify(valid), { 'content-type': 'application/json; charset=latin1' }),
    probe('charset utf-16', false, JSON.stringify(valid), { 'content-type': 'application/json; charset=utf-16' }),
    probe('Content-Encoding: gzip, but not gzip', false, JSON.stringify(valid), { ...JSON_TYPE, 'content-encoding': 'gzip' }),
    probe('Content-Encoding: deflate, but not deflate', false, JSON.stringify(valid), { ...JSON_TYPE, 'content-encoding': 'deflate' }),
    probe('Content-Encoding: br', false, JSON.stringify(valid), { ...JSON_TYPE, 'content-encoding': 'br' }),
    probe('Content-Encoding: an unknown one', false, JSON.stringify(valid), { ...JSON_TYPE, 'content-encoding': 'x-sweep' }),
    probe('Content-Encoding: gzip, a gzip bomb', false, gzipSync(Buffer.alloc(20_000_000, 0x20)), { ...JSON_TYPE, 'content-encoding': 'gzip' }),
  );
  return probes;
}

function queryProbes(operation: Operation, base: ProbeBase): Probe[] {
  const query = operation.parameters.filter((parameter) => parameter.in === 'query');
  const at = (variant: string, mayAccept: boolean, change: { name: string; raw?: string }): Probe => ({ ...base, variant, mayAccept, path: `${pathOf(operation)}${queryOf(operation, change)}` });
  const probes: Probe[] = [at('an unknown extra query parameter', query.length === 0, { name: '', raw: 'sweepExtra=1' })];
  for (const parameter of query) {
    const { name, schema } = parameter;
    const good = encodeURIComponent(String(baselineOf(name, schema)));
    probes.push(
      at(`${name}: given twice`, false, { name, raw: `${name}=${good}&${name}=${good}` }),
      at(`${name}: an object`, false, { name, raw: `${name}[a]=${good}` }),
      at(`${name}: control characters`, schema.type !== 'integer', { name, raw: `${name}=${encodeURIComponent(CONTROL)}` }),
      at(`${name}: bytes that are not UTF-8`, schema.type !== 'integer', { name, raw: `${name}=%ED%A0%80` }),
      at(`${name}: a 100,000-character value`, false, { name, raw: `${name}=${LONG}` }),
      at(`${name}: a 10,000-character value`, false, { name, raw: `${name}=${LONG.slice(0, 10_000)}` }),
    );
    if (parameter.required) probes.push(at(`${name}: missing`, false, { name }));
    if (schema.type === 'integer') {
      for (const value of ['abc', '0.5', '-1', '1e308', '99999999999999999999', '0x10']) probes.push(at(`${name}: ${value}`, false, { name, raw: `${name}=${value}` }));
    } else {
      for (const value of ['-1', '1e308', 'abc', '%', '99999999999999999999', '1.5.0', '0', 'now']) probes.push(at(`${name}: ${value}`, true, { name, raw: `${name}=${value}` }));
    }
  }
  return probes;
}

function pathProbes(operation: Operation, base: ProbeBase): Probe[] {
  return operation.parameters
    .filter((parameter) => parameter.in === 'path')
    .flatMap(({ name, schema }) =>
      [
        ['%00', '%00', false],
        ['..%2f', '..%2f', true],
        ['2,000 characters', 'k'.repeat(2000), (schema.maxLength ?? Infinity) >= 2000],
        ['bytes that are not UTF-8', '%ED%A0%80', false],
        ['a bare %', '%', false],
      ].map(([label, value, mayAccept]) => ({ ...base, variant: `{${name}}: ${String(label)}`, mayAccept: Boolean(mayAccept), path: `${pathOf(operation, [name, String(value)])}${queryOf(operation)}` })),
    );
}

function headerProbes(operation: Operation, base: ProbeBase): Probe[] {
  const values: Record<string, Array<[string, string, boolean]>> = {
    'Idempotency-Key': [
      ['2,000 characters', 'k'.repeat(2000), false],
      ['a tab', 'a\tb', false],
      ['a Latin-1 byte', 'caf\u00e9', false],
      ['empty', '', true],
    ],
    'Last-Event-ID': [
      ['not an event id', 'abc', false],
      ['a negative seq', '-1.0', false],
      ['a huge seq', '99999999999999999999.0', false],
      ['a huge part', '1.99999999999999999999', false],
      ['2,000 characters', '9'.repeat(2000), false],
    ],
  };
  return operation.parameters
    .filter((parameter) => parameter.in === 'header')
    .flatMap(({ name }) => (values[name] ?? []).map(([label, value, mayAccept]) => ({ ...base, variant: `${name}: ${label}`, mayAccept, headers: { ...base.headers, [name]: value } })));
}

const filePart = (name: string, content: Buffer | string, filename = 'a.png', type = 'image/png'): RawPart => ({ disposition: `name="${name}"; filename="${filename}"`, contentType: type, content });

/** A multipart route's form: its text fields (the required ones filled in) and its file part. */
class MultipartForm {
  readonly fileField: string;
  readonly textFields: Array<[string, Schema]>;
  readonly required: Set<string>;

  constructor(
    schema: Schema,
    private readonly png: Buffer,
  ) {
    const properties = schema.properties ?? {};
    this.fileField = Object.keys(properties).find((name) => properties[name]?.format === 'binary' || properties[name]?.items?.format === 'binary') ?? 'file';
    this.textFields = Object.entries(properties).filter(([name]) => name !== this.fileField);
    this.required = new Set(schema.required ?? []);
  }

  get file(): RawPart {
    return filePart(this.fileField, this.png);
  }

  text(): RawPart[] {
    return this.textFields.filter(([name]) => this.required.has(name)).map(([name, field]) => textPart(name, String(baselineOf(name, field))));
  }

  /** The valid form with the text field `name` left out, or given (twice) as `value`. */
  withText(name: string, value: Buffer | string | undefined, twice = false): RawPart[] {
    const given = value === undefined ? [] : [textPart(name, value), ...(twice ? [textPart(name, value)] : [])];
    return [...this.text().filter((part) => part.disposition !== `name="${name}"`), ...given, this.file];
  }
}

function multipartProbes(form: MultipartForm, base: ProbeBase): Probe[] {
  const probe = (variant: string, mayAccept: boolean, parts: RawPart[]): Probe => {
    const { body, contentType } = rawMultipart(parts);
    return { ...base, variant, mayAccept, body, headers: { ...base.headers, 'content-type': contentType } };
  };
  const probes: Probe[] = [];
  for (const [name, field] of form.textFields) {
    if (form.required.has(name)) probes.push(probe(`${name}: missing`, false, form.withText(name, undefined)));
    probes.push(probe(`${name}: given twice`, false, form.withText(name, String(baselineOf(name, field)), true)));
    probes.push(probe(`${name}: bytes that are not UTF-8`, false, form.withText(name, Buffer.from([0x61, 0xff, 0xfe, 0x62]))));
    if (field.enum) probes.push(probe(`${name}: a value not among its choices`, false, form.withText(name, 'not-a-choice')));
    else {
      probes.push(probe(`${name}: a 100,000-character string`, false, form.withText(name, LONG)));
      probes.push(probe(`${name}: control characters`, name === 'text', form.withText(name, CONTROL)));
      probes.push(probe(`${name}: an empty string`, !form.required.has(name), form.withText(name, '')));
    }
  }
  const text = form.text();
  const { fileField, file } = form;
  probes.push(
    probe('an unknown extra field', false, [...text, textPart('sweepExtra', '1'), file]),
    probe(`the file part "${fileField}" missing`, false, text),
    probe('a file part with no filename', false, [...text, { disposition: `name="${fileField}"`, contentType: 'image/png', content: file.content }]),
    probe('a file part under the wrong name', false, [...text, filePart('wrongName', file.content)]),
    probe('a zero-byte file', false, [...text, filePart(fileField, Buffer.alloc(0))]),
    probe('a file name of control characters', false, [...text, filePart(fileField, file.content, 'a\u0001b.png')]),
    probe('a file name of 2,000 characters', true, [...text, filePart(fileField, file.content, `${'n'.repeat(2000)}.png`)]),
  );
  const whole = rawMultipart([...text, file]);
  const cut = whole.body.subarray(0, Math.floor(whole.body.length / 2));
  const raw = (variant: string, body: string | Buffer, type: string): Probe => ({ ...base, variant, mayAccept: false, body, headers: { ...base.headers, 'content-type': type } });
  probes.push(
    raw('a truncated multipart body', cut, whole.contentType),
    raw('a wrong boundary', whole.body, 'multipart/form-data; boundary=not-the-boundary'),
    raw('multipart without a boundary', whole.body, 'multipart/form-data'),
    raw('a JSON body', JSON.stringify({ brandKey: 'acme-kakao' }), 'application/json'),
    raw('Content-Type: text/plain', 'hello', 'text/plain'),
    raw('Content-Type: application/x-www-form-urlencoded', 'brand=acme-kakao', 'application/x-www-form-urlencoded'),
    { ...raw('Content-Encoding: gzip, but not gzip', whole.body, whole.contentType), headers: { ...base.headers, 'content-type': whole.contentType, 'content-encoding': 'gzip' } },
  );
  probes.push(
    probe('40 text fields', false, [...text, ...Array.from({ length: 40 }, (_, i) => textPart(`f${i}`, 'x')), file]),
    probe('a field name of 200 characters', false, [...text, textPart('n'.repeat(200), 'x'), file]),
    probe('25 files', false, [...text, ...Array.from({ length: 25 }, () => file)]),
    // busboy skips a part that names no field and reads past headers beyond its limit: nothing of them is used
    probe('a part without Content-Disposition', true, [...text, { disposition: '', content: 'x' }, file]),
    probe('a part with 300 headers', true, [...text, { disposition: `name="${fileField}"; filename="a.png"\r\n${Array.from({ length: 300 }, (_, i) => `X-H${i}: v`).join('\r\n')}`, contentType: 'image/png', content: file.content }]),
  );
  return probes;
}

function probesFor(operation: Operation, png: Buffer): Probe[] {
  const path = `${pathOf(operation)}${queryOf(operation)}`;
  const headers = { authorization: `Bearer ${TOKENS.admin}` };
  const base: ProbeBase = { route: route(operation), method: operation.method, path, headers };
  const multipart = operation.body?.types.includes('multipart/form-data') ?? false;
  const form = multipart && operation.body ? new MultipartForm(operation.body.schema, png) : undefined;
  // the query, path and header probes carry a valid body, so that only the part they change is wrong
  let valid = base;
  if (form) {
    const { body, contentType } = rawMultipart([...form.text(), form.file]);
    valid = { ...base, body, headers: { ...headers, 'content-type': contentType } };
  } else if (operation.body) {
    valid = { ...base, body: JSON.stringify(validObject(operation.body.schema)), headers: { ...headers, ...JSON_TYPE } };
  }
  return [
    ...(form ? multipartProbes(form, base) : operation.method === 'GET' ? [] : jsonBodyProbes(operation, base)),
    ...queryProbes(operation, valid),
    ...pathProbes(operation, valid),
    ...headerProbes(operation, valid),
  ];
}

/** What is wrong with the answer to a probe, if anything. */
async function problemOf(baseUrl: string, probe: Probe): Promise<string | undefined> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}${probe.path}`, { method: probe.method, headers: probe.headers, ...(probe.body !== undefined ? { body: probe.body } : {}), signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    return `no answer: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  }
  if (response.status < 300 && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    await response.body?.cancel();
    return probe.mayAccept ? undefined : `${response.status} an event stream was opened`;
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    return `${response.status} the body did not arrive: ${String(error)}`;
  }
  const said = `${response.status} ${text.slice(0, 300)}`;
  if (STACK_TRACE.test(text)) return `a stack trace: ${said}`;
  if (response.status >= 500) return said;
  if (response.status < 400) return probe.mayAccept ? undefined : `accepted: ${said}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `not JSON: ${said}`;
  }
  const { ok, code, message, error } = (body ?? {}) as Record<string, unknown>;
  // RFC 8628 has the device token endpoint answer its own errors as { error, error_description }
  if (probe.route === 'POST /api/auth/device/token' && typeof error === 'string') return undefined;
  if (ok !== false || typeof code !== 'string' || typeof message !== 'string' || message.trim() === '') return `not the error envelope: ${said}`;
  return undefined;
}

async function runAll(baseUrl: string, probes: readonly Probe[], concurrency: number): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < probes.length) {
      const probe = probes[next++] as Probe;
      const problem = await problemOf(baseUrl, probe);
      if (problem !== undefined) failures.push(`${probe.route} | ${probe.variant} | ${problem}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return failures;
}

describe('bad input on every route of the OpenAPI document', () => {
  let h: ServiceHarness;
  let images: Awaited<ReturnType<typeof imageDir>>;

  beforeAll(async () => {
    // the key's per-minute limit would answer 429 before the input is read
    h = await ServiceHarness.start({ env: { RATE_LIMIT_PER_KEY: '0' } });
    images = await imageDir();
    await h.customerWrites(USER, { text: 'hello, anyone there?' });
  });
  afterAll(async () => {
    await h.stop();
    await images.cleanup();
  });

  it('answers every malformed request with a 4xx error envelope within 10 s, never a 5xx or a stack trace', async () => {
    const document = (await h.get<OpenApiDocument>('/api/docs-json', null)).body;
    const png = await readFile(await writePng(images.file('card.png'), 800, 600));
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(40);
    const probes = operations.map((operation) => probesFor(operation, png));
    expect(operations.filter((_, i) => probes[i]?.length === 0).map(route)).toEqual([]);
    const all = probes.flat();
    const last = (probe: Probe): boolean => AFTERWARDS.test(probe.route.split(' ')[1] ?? '');
    const failures = [...(await runAll(h.url, all.filter((probe) => !last(probe)), 6)), ...(await runAll(h.url, all.filter(last), 1))];
    expect(failures).toEqual([]);
    const health = await h.get('/healthz', null);
    expect(health.status).toBe(200);
  }, 90_000);
});
