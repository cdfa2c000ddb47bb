import { Response } from 'express';
import { ShiftableClock } from '../clock';
import { Code } from '../result-codes';
import { Obj, RuleContext, isObj } from './button-rules';
import { CallbackDispatcher, CallbackEvent } from './callbacks';
import { CallbackRecord } from './control-types';
import { Rejection } from './http-errors';
import type { PartnerFaults } from './partner-faults';
import { SessionEngine } from './sessions';
import { Channel, Customer, SandboxState, Session } from './state';
import { UploadStore } from './uploads';

/** Everything the sandbox routes work on. */
export interface SandboxDeps {
  state: SandboxState;
  engine: SessionEngine;
  dispatcher: CallbackDispatcher;
  uploads: UploadStore;
  clock: ShiftableClock;
  attachmentHost: string;
  /** random per start: tells a partner that the sandbox started again (GET /_sandbox/info) */
  bootId: string;
  /** failures set to answer the next partner calls (POST /_sandbox/faults) */
  faults: PartnerFaults;
  /**
   * moves the clock forward by `ms`, its new offset first kept where the sandbox keeps its state (when it has a
   * state folder); rejects with ClockNotKeptError, the clock unmoved, when that write fails
   */
  advanceClock: (ms: number) => Promise<void>;
}

export const MAX_USER_KEY = 20;
export const MAX_SERIAL = 30;

/** Callbacks of sessions that expired before this request was handled (see the sweep middleware). */
export function sweptBefore(res: Response): Promise<CallbackRecord[]> {
  const swept = (res.locals as { swept?: Promise<CallbackRecord[]> }).swept;
  return swept ?? Promise.resolve([]);
}

/** Partner calls answer before their callbacks are delivered (the messenger calls back asynchronously). */
export function fireAndForget(deps: SandboxDeps, c: Customer, events: readonly CallbackEvent[]): void {
  if (events.length > 0) void deps.dispatcher.enqueue(c.key, events);
}

export function ruleContext(deps: SandboxDeps, channel: Channel): RuleContext {
  return { chatbotBuilder: channel.chatbotBuilder, uploadKindOf: (url) => deps.uploads.kindOf(url, channel.senderKey) };
}

export interface Located {
  body: Obj;
  channel: Channel;
  userKey: string;
  /** undefined when the messenger never heard of this customer on this channel */
  customer: Customer | undefined;
  serial: string;
}

export interface LocateOptions {
  /** the call takes a serial_number */
  serial: 'none' | 'new' | 'existing';
  /** the call sends something to the customer: chat status, blocked and session are checked */
  send: boolean;
}

/**
 * The common checks of partner calls, in the messenger's order: json (object, ids present), sender,
 * chat status (sends), user key, serial duplicate, blocked, session. The message content is the caller's.
 */
export function locate(deps: SandboxDeps, raw: unknown, o: LocateOptions): Located {
  if (!isObj(raw)) throw new Rejection(Code.InvalidJson, 'the body must be a JSON object');
  const senderKey = raw['sender_key'];
  const userKey = raw['user_key'];
  if (typeof senderKey !== 'string') throw new Rejection(Code.InvalidJson, 'sender_key is required');
  if (typeof userKey !== 'string') throw new Rejection(Code.InvalidJson, 'user_key is required');
  let serial = '';
  if (o.serial !== 'none') {
    const s = raw['serial_number'];
    if (typeof s !== 'string' && typeof s !== 'number') throw new Rejection(Code.InvalidJson, 'serial_number is required');
    serial = String(s);
    if (serial.length === 0 || serial.length > MAX_SERIAL) {
      throw new Rejection(Code.InvalidJson, `serial_number must be 1 to ${MAX_SERIAL} characters`);
    }
  }
  const channel = deps.state.channels.get(senderKey);
  if (!channel) throw new Rejection(Code.InvalidSender, 'unknown sender_key');
  if (o.send && !channel.active) throw new Rejection(Code.InvalidProfileChatStatus, 'chat is deactivated on this channel');
  if (userKey.length === 0 || userKey.length > MAX_USER_KEY) {
    throw new Rejection(Code.InvalidUserKey, `user_key must be 1 to ${MAX_USER_KEY} characters`);
  }
  if (o.serial === 'new' && channel.serials.has(serial)) {
    throw new Rejection(Code.DuplicateSerialNumber, `serial_number ${serial} was already used`);
  }
  const customer = channel.customers.get(userKey);
  if (customer) fireAndForget(deps, customer, deps.engine.expireIfDue(customer));
  if (o.send) {
    if (customer?.blocked) throw new Rejection(Code.BlockedUserMessage, 'the customer is blocked');
    if (!customer?.session) throw new Rejection(Code.InvalidSession, 'no consultation in progress with this customer');
  }
  return { body: raw, channel, userKey, customer, serial };
}

/** locate() for sends: the customer is in a consultation (else -511 / -502), with a new serial number. */
export function locateSession(deps: SandboxDeps, raw: unknown): Located & { customer: Customer; session: Session } {
  const g = locate(deps, raw, { serial: 'new', send: true });
  const customer = g.customer;
  const session = customer?.session;
  if (!customer || !session) throw new Rejection(Code.InvalidSession, 'no consultation in progress with this customer');
  return { ...g, customer, session };
}
