import { controlCharactersMessage, hasControlCharacter } from '@brandwire/domain';
import { Request } from 'express';
import { Obj, isObj } from './button-rules';
import { SandboxDeps, MAX_USER_KEY } from './deps';
import { ControlError } from './http-errors';
import { Channel, Customer } from './state';

/** Input checks of the control API; a failure is a 4xx `{ok: false, code, message}`. */

export function bodyOf(req: Request): Obj {
  const body: unknown = req.body;
  if (!isObj(body)) throw new ControlError(400, 'BAD_REQUEST', 'the body must be a JSON object');
  return body;
}

export function optionalText(o: Obj, field: string, max = 100_000): string | undefined {
  const v = o[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ControlError(400, 'BAD_REQUEST', `${field} must be a string`);
  if (v.length > max) throw new ControlError(400, 'BAD_REQUEST', `${field} is longer than ${max} characters`);
  return v;
}

export function requiredText(o: Obj, field: string, max = 100_000): string {
  const v = optionalText(o, field, max);
  if (v === undefined || v.length === 0) throw new ControlError(400, 'BAD_REQUEST', `${field} is required`);
  return v;
}

export function userKeyOf(req: Request): string {
  const userKey = String(req.params['userKey'] ?? '');
  if (userKey.length === 0 || userKey.length > MAX_USER_KEY) {
    throw new ControlError(400, 'BAD_REQUEST', `userKey must be 1 to ${MAX_USER_KEY} characters`);
  }
  // the messenger hands out no such key, and the partner API could never address its customer
  if (!/\S/.test(userKey)) throw new ControlError(400, 'BAD_REQUEST', 'userKey must not be blank (only spaces)');
  if (hasControlCharacter(userKey)) throw new ControlError(400, 'BAD_REQUEST', controlCharactersMessage('userKey'));
  return userKey;
}

export function channelOf(deps: SandboxDeps, senderKey: unknown): Channel {
  if (typeof senderKey !== 'string' || senderKey.length === 0) {
    throw new ControlError(400, 'BAD_REQUEST', 'senderKey is required');
  }
  const channel = deps.state.channels.get(senderKey);
  if (!channel) throw new ControlError(404, 'UNKNOWN_CHANNEL', `no channel with sender key ${senderKey} (PUT /_sandbox/channels/:senderKey)`);
  return channel;
}

/** A customer the messenger already knows on the channel. */
export function existingCustomer(channel: Channel, userKey: string): Customer {
  const c = channel.customers.get(userKey);
  if (!c) throw new ControlError(404, 'NOT_FOUND', `customer ${userKey} never wrote to this channel`);
  return c;
}

export function refused(code: ControlError['code'], message: string): { ok: false; code: ControlError['code']; message: string } {
  return { ok: false, code, message };
}
