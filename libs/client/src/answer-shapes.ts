/**
 * Light checks of the service's answers: the fields the CLI and the gateway read, so that an endpoint which is not
 * Brandwire (a JSON echo, another API) fails with what it lacked instead of a TypeError later, or a false success.
 */

type Primitive = 'string' | 'number' | 'boolean' | 'object';
/** A JSON type; `?` when the field may be absent, `|null` when it may be null. */
type Kind = Primitive | `${Primitive}?` | `${Primitive}|null`;
export interface Shape {
  readonly [field: string]: Kind | Shape | readonly [Shape];
}
type Expected = Kind | Shape | readonly [Shape];

/** What is wrong with an answer, or undefined when it has the shape. */
export type AnswerCheck = (data: unknown) => string | undefined;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function article(kind: string): string {
  return `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}

function subject(path: string): string {
  return path === '' ? '' : `${path} `;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function problem(value: unknown, expected: Expected, path: string): string | undefined {
  if (typeof expected === 'string') {
    const base = expected.replace(/\?$|\|null$/, '');
    if (value === undefined) return expected.endsWith('?') ? undefined : `without ${path} (${article(base)})`;
    if (value === null && expected.endsWith('|null')) return undefined;
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    return actual === base ? undefined : `with ${subject(path)}${describe(value)} instead of ${article(base)}`;
  }
  if (isArrayShape(expected)) {
    if (!Array.isArray(value)) return value === undefined ? `without ${path} (an array)` : `with ${subject(path)}${describe(value)} instead of an array`;
    for (const [index, item] of value.entries()) {
      const found = problem(item, expected[0], `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (!isRecord(value)) return value === undefined ? `without ${path} (an object)` : `with ${subject(path)}${describe(value)} instead of an object`;
  for (const [field, kind] of Object.entries(expected)) {
    const found = problem(value[field], kind, path === '' ? field : `${path}.${field}`);
    if (found) return found;
  }
  return undefined;
}

function isArrayShape(expected: Shape | readonly [Shape]): expected is readonly [Shape] {
  return Array.isArray(expected);
}

/** A check of `shape`, and of what a shape cannot say (`also`, run once the shape holds). */
export function shaped<T>(shape: Shape | readonly [Shape], also?: (data: T) => string | undefined): AnswerCheck {
  return (data) => problem(data, shape, '') ?? also?.(data as T);
}

const ENVELOPE = { ok: 'boolean', code: 'string' } as const;

const CHANNEL = { key: 'string', name: 'string', type: 'string', plan: { consultations: 'number', remaining: 'number' } } as const;
export const ME = shaped({ name: 'string', scope: 'string', brands: [{ id: 'string', channels: [CHANNEL] }] });

/** A send is confirmed by its serial: `ok` alone (any JSON echo) is not a send. */
export const SEND = shaped<{ ok: boolean; serial?: unknown }>({ ...ENVELOPE, serial: 'string?' }, (reply) =>
  reply.ok && typeof reply.serial !== 'string' ? 'with ok true but without serial (a string)' : undefined,
);
const ATTACHMENT_RESULT = { kind: 'string', ok: 'boolean', code: 'string', serial: 'string?' } as const;
export const SEND_ATTACHMENTS = shaped<{ results: Array<{ ok: boolean; serial?: unknown }> }>({ ok: 'boolean', results: [ATTACHMENT_RESULT] }, (reply) => {
  if (reply.results.length === 0) return 'with results empty';
  return reply.results.some((r) => r.ok && typeof r.serial !== 'string') ? 'with a delivered bubble (ok true) without serial (a string)' : undefined;
});
export const ENVELOPED = shaped(ENVELOPE);
export const UPLOAD = shaped({ ...ENVELOPE, url: 'string' });

const ROOM = { userKey: 'string', lastText: 'string', lastKind: 'string', lastTimestampUnixMs: 'number', count: 'number' } as const;
export const ROOMS = shaped({ brand: 'string', rooms: [ROOM] });
const MESSAGE = { seq: 'number', sessionId: 'string', kind: 'string', text: 'string', timestampUnixMs: 'number' } as const;
export const MESSAGES = shaped({ brand: 'string', userKey: 'string', messages: [MESSAGE] });
const SUMMARY = { convId: 'string', userKey: 'string', ended: 'boolean', lastActivity: 'string', last: 'string', count: 'number' } as const;
export const CONVERSATIONS = shaped([{ brand: 'string', conversations: [SUMMARY] }]);
const CONVERSATION_SHAPE = { brand: 'string', convId: 'string', userKey: 'string', ended: 'boolean', lines: [{ role: 'string', text: 'string', at: 'string' }] } as const;
export const CONVERSATION = shaped(CONVERSATION_SHAPE);
export const EXPORT_PAGE = shaped({ brand: 'string', conversations: [CONVERSATION_SHAPE], next: 'string|null' });
export const SIGNALS = shaped({ brand: 'string', signals: [{ id: 'string', signal: { kind: 'string', seq: 'number' } }], next: 'string' });

export const PROFILE = shaped({ brand: 'string', profile: 'object' });
export const WEBHOOK = shaped({ brand: 'string', url: 'string|null' });
export const CHAT = shaped({ brand: 'string', active: 'boolean' });
export const CHAT_TOGGLE = shaped({ ...ENVELOPE, active: 'boolean?' });
export const SCHEDULE = shaped({ brand: 'string', schedule: 'object|null', openNow: 'boolean' });
export const SYSTEM_MESSAGES = shaped({ brand: 'string', messages: { greeting: 'string', outOfHours: 'string', autoAnswers: 'object' } });
export const PLAN = shaped({ consultations: 'number', used: 'number', remaining: 'number' });

const KEY = { id: 'string', name: 'string', scope: 'string', createdAt: 'string', current: 'boolean' } as const;
/** A shape cannot say "an array of strings": `brands` is checked beside it. */
export const KEYS = shaped<{ keys: Array<{ brands?: unknown }> }>({ keys: [KEY] }, (reply) => {
  const index = reply.keys.findIndex((key) => !Array.isArray(key.brands) || key.brands.some((brand) => typeof brand !== 'string'));
  return index < 0 ? undefined : `with keys[${index}].brands not an array of strings`;
});
/** A new key: its token is in this answer only. */
export const CREATED_KEY = shaped({ ...KEY, ok: 'boolean', token: 'string' });
/** A revocation is confirmed by `revoked: true`. */
export const REVOKED_KEY = shaped<{ revoked: boolean }>({ ok: 'boolean', id: 'string', name: 'string', revoked: 'boolean', self: 'boolean' }, (reply) =>
  reply.revoked ? undefined : 'with revoked false',
);

export const DEVICE_CODE = shaped({ device_code: 'string', user_code: 'string', verification_uri: 'string', expires_in: 'number', interval: 'number' });
export const DEVICE_TOKEN = shaped({ access_token: 'string', scope: 'string', name: 'string' });
