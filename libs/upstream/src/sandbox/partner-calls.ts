import { CONSENT_BUBBLE_TEXT, DELETE_WINDOW_MS, MAX_BOT_EVENT_CHARACTERS, isLongerThan } from '@brandwire/domain';
import { Code } from '../result-codes';
import { isObj } from './button-rules';
import { SandboxDeps, fireAndForget, locate, locateSession, ruleContext } from './deps';
import { Rejection } from './http-errors';
import { validateRichEnvelope } from './rich-rules';
import { Channel, Customer, NewBubble, Session } from './state';
import { validateWrite } from './write-rules';

/** One JSON partner call: takes the parsed body, returns the answer or throws a Rejection. */
export type PartnerCall = (body: unknown) => Record<string, unknown>;

type AgentBubble = Omit<NewBubble, 'serial' | 'from' | 'sentAt'>;

const OK = { code: Code.Ok };

/** The messenger's JSON partner calls by path (the uploads are multipart, in upload-routes). */
export function partnerCalls(deps: SandboxDeps): ReadonlyMap<string, PartnerCall> {
  const { state, engine } = deps;

  function sent(channel: Channel, c: Customer, serial: string, b: AgentBubble): void {
    channel.serials.add(serial);
    state.addBubble(c, { serial, from: 'agent', sentAt: engine.now(), ...b });
  }

  /**
   * The consent bubble: kakao-type channels only. Once per session is the service's rule (its own -520), not the
   * messenger's: a second bubble is sent, and the customer answers the latest.
   */
  function requestConsent(channel: Channel, c: Customer, session: Session, serial: string): void {
    if (channel.type !== 'kakao') {
      throw new Rejection(Code.InvalidMessage, `personal-info consent needs a kakao-type channel (this one is '${channel.type}')`);
    }
    channel.serials.add(serial);
    const at = engine.now();
    session.consentBubble = state.addBubble(c, { serial, from: 'agent', kind: 'consent', text: CONSENT_BUBBLE_TEXT, imageUrl: null, sentAt: at });
  }

  function endAnswer(c: Customer | undefined, ended: ReturnType<typeof engine.end> | undefined): Record<string, unknown> {
    if (!c || !ended || ended.sessionId === undefined) return OK;
    fireAndForget(deps, c, ended.events);
    return { code: Code.Ok, session_id: ended.sessionId };
  }

  const setChat = (active: boolean) => (body: unknown) => {
    if (!isObj(body) || typeof body['sender_key'] !== 'string') throw new Rejection(Code.InvalidJson, 'sender_key is required');
    const channel = state.channels.get(body['sender_key']);
    if (!channel) throw new Rejection(Code.InvalidSender, 'unknown sender_key');
    channel.active = active;
    return OK;
  };

  return new Map<string, PartnerCall>([
    [
      '/v1/write',
      (body) => {
        const g = locateSession(deps, body);
        const check = validateWrite(g.body, ruleContext(deps, g.channel));
        if (!check.ok) throw new Rejection(check.violation.code, check.violation.detail);
        sent(g.channel, g.customer, g.serial, check.bubble);
        return OK;
      },
    ],
    [
      '/v1/rich',
      (body) => {
        const g = locateSession(deps, body);
        const check = validateRichEnvelope(g.body, ruleContext(deps, g.channel));
        if (!check.ok) throw new Rejection(check.violation.code, check.violation.detail);
        const { type, ...shown } = check.bubble;
        if (type === 'PERSONAL') requestConsent(g.channel, g.customer, g.session, g.serial);
        else sent(g.channel, g.customer, g.serial, { kind: 'rich', ...shown });
        return OK;
      },
    ],
    [
      '/v1/personal_info/request',
      (body) => {
        const g = locateSession(deps, body);
        requestConsent(g.channel, g.customer, g.session, g.serial);
        return OK;
      },
    ],
    [
      '/v1/end',
      (body) => {
        const g = locate(deps, body, { serial: 'none', send: false });
        return endAnswer(g.customer, g.customer && engine.end(g.customer, 'agent_end'));
      },
    ],
    [
      '/v1/end_with_bot',
      (body) => {
        const g = locate(deps, body, { serial: 'none', send: false });
        const botEvent = g.body['bot_event'];
        if (botEvent !== undefined && botEvent !== null && typeof botEvent !== 'string') {
          throw new Rejection(Code.InvalidJson, 'bot_event must be a string');
        }
        if (typeof botEvent === 'string' && isLongerThan(botEvent, MAX_BOT_EVENT_CHARACTERS)) {
          throw new Rejection(Code.InvalidMessage, `bot_event is longer than ${MAX_BOT_EVENT_CHARACTERS} characters`);
        }
        return endAnswer(g.customer, g.customer && engine.end(g.customer, 'bot', botEvent ?? null));
      },
    ],
    [
      '/v1/block',
      (body) => {
        const g = locate(deps, body, { serial: 'none', send: false });
        const c = g.customer ?? state.customer(g.channel, g.userKey);
        fireAndForget(deps, c, engine.end(c, 'block').events);
        c.blocked = true;
        return OK;
      },
    ],
    [
      '/v1/unblock',
      (body) => {
        const g = locate(deps, body, { serial: 'none', send: false });
        if (g.customer) g.customer.blocked = false;
        return OK;
      },
    ],
    ['/v1/chat/activate', setChat(true)],
    ['/v1/chat/deactivate', setChat(false)],
    [
      '/v1/delete',
      (body) => {
        const g = locate(deps, body, { serial: 'existing', send: false });
        const bubble = g.customer?.bySerial.get(g.serial);
        if (!bubble || bubble.from !== 'agent') {
          throw new Rejection(Code.InvalidMessage, `serial_number ${g.serial} is not a message sent to this customer`);
        }
        if (bubble.kind === 'consent') throw new Rejection(Code.InvalidMessage, 'not deletable in this state: consent bubble');
        if (bubble.deleted) throw new Rejection(Code.InvalidMessage, 'not deletable in this state: already deleted');
        if (engine.now() - bubble.sentAt > DELETE_WINDOW_MS) {
          throw new Rejection(Code.InvalidMessage, 'not deletable in this state: sent more than 24 hours ago');
        }
        bubble.deleted = true;
        return OK;
      },
    ],
  ]);
}
