import { isLongerThan, jsonTypeOf } from '@brandwire/domain';
import { Code } from '../result-codes';

/** A broken message rule: the upstream code and which rule, naming the field path. */
export class RuleViolation extends Error {
  constructor(
    readonly code: typeof Code.InvalidJson | typeof Code.InvalidMessage | typeof Code.MessageLengthOverLimit | typeof Code.InvalidImage,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** A message checked against the messenger's rules: what it becomes, or the first rule it breaks. */
export type RuleCheck<T> = { ok: true; bubble: T } | { ok: false; violation: RuleViolation };

/** Runs a check that throws RuleViolation at the first broken rule; other errors are not the message's fault. */
export function checkRules<T>(check: () => T): RuleCheck<T> {
  try {
    return { ok: true, bubble: check() };
  } catch (err) {
    if (err instanceof RuleViolation) return { ok: false, violation: err };
    throw err;
  }
}

export type UploadKind = 'rich' | 'plain' | 'file' | 'audio' | 'video';

export interface RuleContext {
  /** the channel uses a chatbot builder (BT buttons allowed) */
  chatbotBuilder: boolean;
  /** what an url was uploaded as, or undefined when it is not one of the messenger's uploads */
  uploadKindOf(url: string): UploadKind | undefined;
}

export type Obj = Record<string, unknown>;

export const BUTTON_TYPES = ['BK', 'WL', 'AL', 'BT', 'BF', 'MD', 'AC'] as const;
export const QUICK_REPLY_TYPES = ['BK', 'WL', 'AL', 'BT', 'BF'] as const;

export function invalid(detail: string): RuleViolation {
  return new RuleViolation(Code.InvalidMessage, detail);
}

/**
 * A value outside a closed list of strings, shown as it was given: a string quoted, a number or boolean as is,
 * and for any other type only what was expected instead.
 */
export function notOneOf(
  field: string,
  value: unknown,
  allowed: readonly string[],
  code: RuleViolation['code'] = Code.InvalidMessage,
): RuleViolation {
  const list = `is not one of ${allowed.join(', ')}`;
  if (typeof value === 'string') return new RuleViolation(code, `${field} '${value}' ${list}`);
  const shown = typeof value === 'number' || typeof value === 'boolean' ? `${field} ${String(value)}` : field;
  return new RuleViolation(code, `${shown} ${list} (a string is expected, not ${jsonTypeOf(value)})`);
}

export function isObj(x: unknown): x is Obj {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

export function isHttpUrl(s: string): boolean {
  return /^https?:\/\/[^\s/?#]+/i.test(s);
}

/** Optional string field with a maximum length. */
export function optionalString(o: Obj, field: string, path: string, max: number): string | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalid(`${path}.${field} must be a string`);
  if (isLongerThan(v, max)) throw invalid(`${path}.${field} is longer than ${max} characters`);
  return v;
}

export function requiredString(o: Obj, field: string, path: string, max: number): string {
  const v = optionalString(o, field, path, max);
  if (v === undefined || v.length === 0) throw invalid(`${path}.${field} is required`);
  return v;
}

interface LinkLimits {
  name: number;
  type: number;
  link: number;
  allowed: readonly string[];
}

/** Rules common to buttons and quick replies: type, name, links, and what each type needs. */
function checkButtonLike(b: unknown, path: string, ctx: RuleContext, lim: LinkLimits): Obj {
  if (!isObj(b)) throw invalid(`${path} must be an object`);
  const type = requiredString(b, 'type', path, lim.type);
  if (!lim.allowed.includes(type)) throw invalid(`${path}.type '${type}' is not one of ${lim.allowed.join(', ')}`);
  requiredString(b, 'name', path, lim.name);
  for (const f of ['url_mobile', 'url_pc']) {
    const url = optionalString(b, f, path, lim.link);
    if (url !== undefined && !isHttpUrl(url)) throw invalid(`${path}.${f} must be an http or https URL`);
  }
  const present = ['scheme_android', 'scheme_ios'].filter((f) => optionalString(b, f, path, lim.link));
  if (b['url_mobile']) present.push('url_mobile');
  if (type === 'WL' && !b['url_mobile']) throw invalid(`${path}.url_mobile is required for type WL`);
  if (type === 'AL' && present.length < 2) {
    throw invalid(`${path} of type AL needs at least two of scheme_android, scheme_ios, url_mobile`);
  }
  const bizFormKey = b['biz_form_key'];
  if (type === 'BF' && (bizFormKey === undefined || bizFormKey === null || bizFormKey === '')) throw invalid(`${path}.biz_form_key is required for type BF`);
  if (bizFormKey !== undefined && bizFormKey !== null && typeof bizFormKey !== 'string') throw invalid(`${path}.biz_form_key must be a string`);
  if (type === 'BT' && !ctx.chatbotBuilder) {
    throw invalid(`${path}.type BT is only allowed on channels that use a chatbot builder`);
  }
  return b;
}

/** The fields of `o` named in `fields` that are strings: what the chat shows of a part, without anything else sent in it. */
export function stringFields(o: Obj, fields: readonly string[]): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const f of fields) {
    const v = o[f];
    if (typeof v === 'string') shown[f] = v;
  }
  return shown;
}

/** What the chat shows of a button: its label, type and links. */
export function shownButton(b: Obj): Obj {
  return stringFields(b, ['name', 'type', 'url_mobile', 'url_pc', 'scheme_android', 'scheme_ios']);
}

/** Buttons: allowed types, label <= 28, URLs <= 1000 and http/https, at most `max`. */
export function checkButtons(list: unknown, path: string, max: number, ctx: RuleContext, why: string): Obj[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw invalid(`${path} must be an array`);
  if (list.length > max) throw invalid(`${path} has ${list.length} buttons; ${why} allows at most ${max}`);
  return list.map((b, i) => checkButtonLike(b, `${path}[${i}]`, ctx, { name: 28, type: 100, link: 1000, allowed: BUTTON_TYPES }));
}

export const MAX_QUICK_REPLIES = 10;

/** Quick replies: at most 10; name <= 14 and type <= 2 required; links <= 300; extra <= 100; chat_event <= 50. */
export function checkQuickReplies(list: unknown, path: string, ctx: RuleContext): Obj[] {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw invalid(`${path} must be an array`);
  if (list.length > MAX_QUICK_REPLIES) {
    throw invalid(`${path} has ${list.length} quick replies; at most ${MAX_QUICK_REPLIES} are allowed`);
  }
  return list.map((q, i) => {
    const p = `${path}[${i}]`;
    const o = checkButtonLike(q, p, ctx, { name: 14, type: 2, link: 300, allowed: QUICK_REPLY_TYPES });
    optionalString(o, 'extra', p, 100);
    optionalString(o, 'chat_event', p, 50);
    checkUrlTarget(o, p);
    return o;
  });
}

/** A quick reply's `url_target`: left out, or `out` (the link opens in an external browser). */
function checkUrlTarget(q: Obj, path: string): void {
  const target = q['url_target'];
  if (target === undefined || target === null || target === 'out') return;
  throw invalid(`${path}.url_target '${String(target)}' is not allowed: the only value is out (opens the link in an external browser)`);
}

export const AUTO_ANSWERS = ['S1', 'S2', 'S3', 'S4', 'S5'] as const;

export function checkAutoAnswer(v: unknown, allowed: boolean, where: string): void {
  if (v === undefined || v === null) return;
  if (typeof v !== 'string' || !(AUTO_ANSWERS as readonly string[]).includes(v)) {
    throw notOneOf('auto_answer', v, AUTO_ANSWERS);
  }
  if (!allowed) throw invalid(`auto_answer is only allowed with ${where}`);
}
