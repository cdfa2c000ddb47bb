import { fail } from '../common/errors/envelope';

/**
 * Lenient readers for the messenger's callback bodies: unknown fields are ignored (the messenger may add
 * some), missing or mistyped required ones are a `BAD_REQUEST` naming the field.
 */
export type CallbackBody = Record<string, unknown>;

export function asBody(body: unknown): CallbackBody {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw fail('BAD_REQUEST', 'the callback body must be a JSON object');
  return body as CallbackBody;
}

export function requiredString(body: CallbackBody, field: string): string {
  const value = body[field];
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string' || value === '') throw fail('BAD_REQUEST', `${field} must be a non-empty string`);
  return value;
}

/** The messenger's user keys are at most 20 characters (its notes). */
const MAX_USER_KEY = 20;

export function userKeyOf(body: CallbackBody): string {
  const userKey = requiredString(body, 'user_key');
  if (userKey.length > MAX_USER_KEY) throw fail('BAD_REQUEST', `user_key must be at most ${MAX_USER_KEY} characters, as the messenger's are (got ${userKey.length})`);
  return userKey;
}

/** A string, or a number read as one (the messenger sends some ids as numbers); absent when missing or null. */
export function optionalString(body: CallbackBody, field: string): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') throw fail('BAD_REQUEST', `${field} must be a string`);
  return value;
}

/** The latest instant a JavaScript date holds (epoch milliseconds): later times could not be shown as dates. */
const LATEST_DATE_MS = 8.64e15;

export function timeOf(body: CallbackBody, fallback: number): number {
  const value = body['time'];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > LATEST_DATE_MS) {
    throw fail('BAD_REQUEST', 'time must be epoch milliseconds (a whole number of a real date)');
  }
  return value;
}

export function objectOrNull(body: CallbackBody, field: string): Record<string, unknown> | null {
  const value = body[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw fail('BAD_REQUEST', `${field} must be an object or null`);
  return value as Record<string, unknown>;
}
