import { randomBytes } from 'node:crypto';
import { CONSENT_VALIDITY_MS, isOpenAt } from '@brandwire/domain';
import express, { Response, Router } from 'express';
import { Obj, isObj } from './button-rules';
import { CallbackEvent } from './callbacks';
import { bodyOf, channelOf, existingCustomer, optionalText, refused, requiredText, userKeyOf } from './control-input';
import { CustomerAttachmentType, SandboxFailure } from './control-types';
import { customerMessagesOf } from './customer-messages';
import { SandboxDeps, sweptBefore } from './deps';
import { ControlError, wrap } from './http-errors';
import { CustomerMessage } from './sessions';
import { Channel, Customer } from './state';

const ATTACHMENT_TYPES: readonly string[] = ['photo', 'video', 'audio', 'file'];

/** What the customer does: write, leave, consent, tap a quick reply; and another agent tool deleting. */
export function customerRoutes(deps: SandboxDeps): Router {
  const r = express.Router({ mergeParams: true });
  const { state, engine, dispatcher } = deps;

  /** Delivers the events (after any swept before the call) and answers `{ok: true, callbacks}`. */
  async function answer(res: Response, c: Customer, events: CallbackEvent[]): Promise<void> {
    const before = await sweptBefore(res);
    const records = await dispatcher.enqueue(c.key, events);
    res.json({ ok: true, callbacks: [...before, ...records] });
  }

  /** Delivers the events, then answers with the refusal. */
  async function refuse(res: Response, c: Customer, events: CallbackEvent[], failure: SandboxFailure): Promise<void> {
    await sweptBefore(res);
    await dispatcher.enqueue(c.key, events);
    res.json(failure);
  }

  /**
   * The customer writes; refused when blocked, or when the chat is off and no consultation is in progress.
   * Outside the consultation hours the message still goes through and the messenger adds its notice.
   */
  async function write(res: Response, channel: Channel, c: Customer, messages: CustomerMessage[], ref?: Obj) {
    const pre = engine.expireIfDue(c);
    if (c.blocked) return refuse(res, c, pre, refused('BLOCKED', 'the partner blocked this customer'));
    if (!channel.active && !c.session) {
      state.addNotice(c, channel.systemMessages.autoAnswers.S1, engine.now());
      return refuse(res, c, pre, refused('CHAT_DEACTIVATED', 'chat is deactivated on this channel; no consultation started'));
    }
    const events = engine.customerWrites(c, messages, ref);
    if (!isOpenAt(channel.schedule, engine.now())) state.addNotice(c, channel.systemMessages.outOfHours, engine.now());
    return answer(res, c, [...pre, ...events]);
  }

  r.post(
    '/messages',
    wrap(async (req, res) => {
      const userKey = userKeyOf(req);
      const body = bodyOf(req);
      const channel = channelOf(deps, body['senderKey']);
      const text = optionalText(body, 'text');
      const attachments = attachmentsOf(body['attachments']);
      const reference = body['reference'];
      if (reference !== undefined && reference !== null && !isObj(reference)) {
        throw new ControlError(400, 'BAD_REQUEST', 'reference must be an object');
      }
      if (!text && attachments.length === 0) {
        throw new ControlError(400, 'EMPTY', 'the message has neither text nor attachments');
      }
      // the messenger's app sends no message of white space only
      if (text !== undefined && text !== '' && !/\S/.test(text)) throw new ControlError(400, 'EMPTY', 'text must not be blank (only white space)');
      const messages = customerMessagesOf(text, attachments, deps.attachmentHost, undefined, (whole) => longTextUrl(deps, whole));
      await write(res, channel, state.customer(channel, userKey), messages, isObj(reference) ? reference : undefined);
    }),
  );

  r.post(
    '/end',
    wrap(async (req, res) => {
      const userKey = userKeyOf(req);
      const c = existingCustomer(channelOf(deps, bodyOf(req)['senderKey']), userKey);
      const pre = engine.expireIfDue(c);
      if (!c.session) return refuse(res, c, pre, refused('NO_SESSION', 'no consultation in progress'));
      await answer(res, c, [...pre, ...engine.end(c, 'customer_left').events]);
    }),
  );

  r.post(
    '/consent',
    wrap(async (req, res) => {
      const userKey = userKeyOf(req);
      const body = bodyOf(req);
      const c = existingCustomer(channelOf(deps, body['senderKey']), userKey);
      const nickname = requiredText(body, 'nickname', 100);
      const phoneNumber = requiredText(body, 'phoneNumber', 40);
      const pre = engine.expireIfDue(c);
      const session = c.session;
      if (!session) return refuse(res, c, pre, refused('NO_SESSION', 'no consultation in progress'));
      const bubble = session.consentBubble;
      if (!bubble || bubble.deleted || session.consentGiven) {
        return refuse(res, c, pre, refused('NO_PENDING_CONSENT', 'no consent request is waiting in this session'));
      }
      if (engine.now() - bubble.sentAt > CONSENT_VALIDITY_MS) {
        return refuse(res, c, pre, refused('NO_PENDING_CONSENT', 'the consent request is older than 3 days'));
      }
      session.consentGiven = true;
      const event: CallbackEvent = {
        path: 'personal_info',
        body: {
          user_key: c.userKey,
          sender_key: c.senderKey,
          session_id: session.id,
          nickname,
          phone_number: phoneNumber,
          time: engine.now(),
        },
      };
      await answer(res, c, [...pre, event]);
    }),
  );

  r.post(
    '/tap',
    wrap(async (req, res) => {
      const userKey = userKeyOf(req);
      const body = bodyOf(req);
      const channel = channelOf(deps, body['senderKey']);
      const c = existingCustomer(channel, userKey);
      const serial = requiredText(body, 'serial', 100);
      const index = body['quickReply'];
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) {
        throw new ControlError(400, 'BAD_REQUEST', 'quickReply must be an integer >= 0');
      }
      const bubble = c.bySerial.get(serial);
      if (!bubble || bubble.from !== 'agent') throw new ControlError(404, 'NOT_FOUND', `no agent bubble ${serial}`);
      const qr = bubble.quickReplies[index];
      if (!qr) throw new ControlError(404, 'NOT_FOUND', `bubble ${serial} has no quick reply ${index}`);
      if (bubble.deleted) return refuse(res, c, [], refused('NOT_TAPPABLE', 'the bubble was deleted'));
      const type = String(qr['type']);
      const name = String(qr['name']);
      if (type === 'BK') {
        const extra = typeof qr['extra'] === 'string' ? qr['extra'] : undefined;
        return write(res, channel, c, customerMessagesOf(name, [], deps.attachmentHost, extra));
      }
      if (type === 'BT') {
        if (!channel.chatbotBuilder) {
          return refuse(res, c, [], refused('NOT_TAPPABLE', 'BT needs a channel that uses a chatbot builder'));
        }
        const pre = engine.expireIfDue(c);
        if (!c.session) return refuse(res, c, pre, refused('NO_SESSION', 'no consultation in progress'));
        const chatEvent = typeof qr['chat_event'] === 'string' ? qr['chat_event'] : null;
        return answer(res, c, [...pre, ...engine.end(c, 'bot', chatEvent).events]);
      }
      await refuse(res, c, [], refused('NOT_TAPPABLE', `a ${type} quick reply opens a link or form; nothing is sent`));
    }),
  );

  r.post(
    '/delete-by-other-tool',
    wrap(async (req, res) => {
      const userKey = userKeyOf(req);
      const body = bodyOf(req);
      const c = existingCustomer(channelOf(deps, body['senderKey']), userKey);
      const serial = requiredText(body, 'serial', 100);
      const bubble = c.bySerial.get(serial);
      if (!bubble || bubble.from !== 'agent') throw new ControlError(404, 'NOT_FOUND', `no agent bubble ${serial}`);
      if (bubble.kind === 'consent') return refuse(res, c, [], refused('NOT_DELETABLE', 'a consent bubble cannot be deleted'));
      if (bubble.deleted) return refuse(res, c, [], refused('NOT_DELETABLE', 'the bubble is already deleted'));
      bubble.deleted = true;
      const time = engine.now();
      const event: CallbackEvent = {
        path: 'deleted',
        body: { user_key: c.userKey, sender_key: c.senderKey, serial_number: serial, time },
      };
      await answer(res, c, [event]);
    }),
  );

  return r;
}

/** Keeps a long customer text on the sandbox's own host and returns its url (served by `GET /texts/:name`). */
function longTextUrl(deps: SandboxDeps, text: string): string {
  return `${deps.uploads.publicBase}/texts/${deps.state.keepLongText(text, randomBytes(8).toString('hex'))}`;
}

function attachmentsOf(v: unknown): { type: CustomerAttachmentType; caption?: string }[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new ControlError(400, 'BAD_REQUEST', 'attachments must be an array');
  if (v.length > 30) throw new ControlError(400, 'BAD_REQUEST', 'at most 30 attachments');
  return v.map((a: unknown, i) => {
    if (!isObj(a) || typeof a['type'] !== 'string' || !ATTACHMENT_TYPES.includes(a['type'])) {
      throw new ControlError(400, 'BAD_REQUEST', `attachments[${i}].type must be one of ${ATTACHMENT_TYPES.join(', ')}`);
    }
    const caption = optionalText(a, 'caption', 1000);
    return caption === undefined
      ? { type: a['type'] as CustomerAttachmentType }
      : { type: a['type'] as CustomerAttachmentType, caption };
  });
}
