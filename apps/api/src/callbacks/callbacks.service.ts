import { CONSENT_VALIDITY_MS, DELETION_NOTICE, type JournalKind, sessionExpiresAt } from '@brandwire/domain';
import type { ChannelRecord, NewJournalItem, Store } from '@brandwire/store';
import { type MessengerPort, type ShiftableClock, UpstreamUnavailableError } from '@brandwire/upstream';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, MESSENGER, STORE } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import { KeyedTurns } from '../common/concurrency/keyed-turns';
import { fail } from '../common/errors/envelope';
import { JournalWriter } from '../journal/journal-writer.service';
import { type CallbackBody, objectOrNull, optionalString, requiredString, timeOf, userKeyOf } from './callback-body';
import { TRUNCATED_MARK, longTextUrl, messageText } from './message-text';
import { sessionEnding } from '../journal/session-ending';
import { PersonalInfoRelay } from '../signals/personal-info-relay.service';

export interface CallbackAck {
  ok: true;
  seq: number;
}

/** How many of a customer's latest items a repeated callback is looked for among: the messenger repeats soon. */
const REPEAT_WINDOW_ITEMS = 100;

/** Turns the messenger's callbacks into journal items. */
@Injectable()
export class CallbacksService {
  private readonly logger = new Logger('Callbacks');
  /** one customer's callbacks one after another: a repeat that arrives while the first is still written waits for it */
  private readonly turns = new KeyedTurns();

  constructor(
    private readonly access: BrandAccessService,
    private readonly journal: JournalWriter,
    private readonly personalInfoRelay: PersonalInfoRelay,
    @Inject(STORE) private readonly store: Store,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
    @Inject(MESSENGER) private readonly messenger: MessengerPort,
  ) {}

  /**
   * A customer message. The messenger repeats a callback it got no answer to: a message whose serial_number is
   * already among the customer's latest items is answered with the seq it got, and journaled once.
   */
  async message(body: CallbackBody): Promise<CallbackAck> {
    const channel = await this.channelOf(body);
    const userKey = userKeyOf(body);
    const sessionId = requiredString(body, 'session_id');
    const messengerSerial = optionalString(body, 'serial_number');
    const meta = messengerSerial === undefined ? undefined : { messengerSerial };
    return this.turns.run(`${channel.key}\u0000${userKey}`, async () => {
      // looked for in the write's transaction: another instance may take the same repeat at the same moment
      const item = this.itemOf(body, 'message', await this.wholeText(body), meta ?? null);
      if (meta === undefined) return this.record(item, channel.key);
      return { ok: true, seq: await this.journal.appendUnlessRecent(channel.key, item, { kind: 'message', sessionId, meta }, REPEAT_WINDOW_ITEMS) };
    });
  }

  /**
   * A very long text arrives cut short, with its whole text in a .txt on the messenger's host: fetched through
   * the messenger port (its host only, with a timeout and a size cap). When that fails the message is still
   * journaled, as cut, marked so; the callback never fails for it.
   */
  private async wholeText(body: CallbackBody): Promise<string> {
    const text = messageText(body);
    const url = longTextUrl(body);
    if (url === undefined) return text;
    try {
      const whole = await this.messenger.fetchLongText(url);
      if (whole.length >= text.length) return whole;
      this.logger.warn('the whole text of a long customer message is shorter than its first part; kept as cut');
    } catch (error) {
      // the reason only: the url leads to the customer's words
      this.logger.warn(`the whole text of a long customer message could not be fetched (${error instanceof UpstreamUnavailableError ? error.reason : 'error'})`);
    }
    return text + TRUNCATED_MARK;
  }

  /** A new consultation: one per session, however often the messenger repeats it. */
  async reference(body: CallbackBody): Promise<CallbackAck> {
    const channel = await this.channelOf(body);
    const userKey = userKeyOf(body);
    const sessionId = requiredString(body, 'session_id');
    const meta = { reference: objectOrNull(body, 'reference') ?? {}, lastReference: objectOrNull(body, 'last_reference'), appUserId: optionalString(body, 'app_user_id') ?? null };
    return this.turns.run(`${channel.key}\u0000${userKey}`, async () => ({
      ok: true,
      seq: await this.journal.appendUnlessRecent(channel.key, this.itemOf(body, 'reference', 'Consultation started', meta), { kind: 'reference', sessionId }, REPEAT_WINDOW_ITEMS),
    }));
  }

  /**
   * The messenger reports every end the same way, with no cause. An end the service asked for (journaled with
   * its cause when it was asked), or any end before the session's 30 days (from the customer's last message,
   * counted from the next full hour) ran out, is `ended`: the customer left, ended the chat or blocked the
   * channel, or another agent tool ended it. Only an end once those 30 days have run out is `expired`.
   */
  async sessionOver(body: CallbackBody): Promise<CallbackAck> {
    const channel = await this.channelOf(body);
    const userKey = userKeyOf(body);
    const sessionId = requiredString(body, 'session_id');
    const at = timeOf(body, this.clock.now());
    const room = await this.store.journal.getRoom(channel.key, userKey);
    const askedToEnd = room?.endRequestedSession === sessionId;
    const lastActivity = await this.store.journal.lastCustomerActivityMs(channel.key, userKey, sessionId);
    const kind: JournalKind = lastActivity !== undefined && at >= sessionExpiresAt(lastActivity) ? 'expired' : 'ended';
    const cause = kind === 'expired' ? 'expired' : askedToEnd ? 'agent_end' : 'ended';
    const ending = sessionEnding(cause);
    const item = await this.journal.appendSessionEnd(channel.key, {
      userKey,
      sessionId,
      kind,
      text: ending.text,
      timestampUnixMs: at,
      meta: cause !== 'ended' ? { reason: cause } : null,
    });
    if (item) return { ok: true, seq: item.seq };
    const conversation = await this.store.journal.findCustomerConversation(channel.key, userKey, sessionId);
    return { ok: true, seq: conversation?.lastSeq ?? 0 };
  }

  /**
   * The customer's consent: relayed, never stored. A consent given more than 3 days after this service sent its
   * request is no longer valid and is not relayed; a request another tool sent is not known here and is relayed.
   * The messenger repeats a callback it got no answer to: a consultation's result is relayed once, and its
   * repeats are answered `ok` without relaying the values again. At most once, since the values are never stored:
   * a crash after the claim and before the delivery loses them, as a crash during the delivery would.
   */
  async personalInfo(body: CallbackBody): Promise<{ ok: true }> {
    const { channel, userKey } = await this.consentingCustomer(body);
    const sessionId = optionalString(body, 'session_id');
    const consultation = sessionId === undefined ? undefined : { channelKey: channel.key, userKey, sessionId };
    const requestedAt = consultation === undefined ? undefined : await this.store.consentRequests.requestedAtMs(consultation);
    if (requestedAt !== undefined && timeOf(body, this.clock.now()) - requestedAt > CONSENT_VALIDITY_MS) {
      this.logger.warn(`a consent given more than 3 days after its request was not relayed (channel ${channel.key})`);
      return { ok: true };
    }
    const values = { nickname: requiredString(body, 'nickname'), phoneNumber: requiredString(body, 'phone_number') };
    const claim = consultation === undefined ? undefined : await this.store.consentRequests.claimRelay(consultation, this.clock.now());
    if (consultation !== undefined && claim === undefined) return { ok: true };
    try {
      await this.personalInfoRelay.relay(channel, userKey, values);
    } catch (error) {
      // nothing went out: the messenger's repeat of this callback relays it
      if (claim !== undefined) await this.store.consentRequests.releaseRelay(claim);
      throw error;
    }
    return { ok: true };
  }

  /**
   * Who consented: by sender_key and user_key, or, when the messenger names only the session (its notes list
   * just session_id with the values), by the one consultation of that session this service knows.
   */
  private async consentingCustomer(body: CallbackBody): Promise<{ channel: ChannelRecord; userKey: string }> {
    const userKey = optionalString(body, 'user_key');
    if (body['sender_key'] !== undefined && userKey !== undefined) return { channel: await this.channelOf(body), userKey };
    const sessionId = requiredString(body, 'session_id');
    const channelKey = body['sender_key'] === undefined ? undefined : (await this.channelOf(body)).key;
    const matches = (await this.store.journal.findSessionConversations(sessionId, 10)).filter(
      (c) => (channelKey === undefined || c.channelKey === channelKey) && (userKey === undefined || c.userKey === userKey),
    );
    const [only] = matches;
    if (!only || matches.length > 1) {
      throw fail('BAD_REQUEST', `session_id ${sessionId} names ${matches.length === 0 ? 'no' : 'more than one'} consultation of this service: sender_key and user_key are needed`);
    }
    const channel = await this.store.directory.findChannel(only.channelKey);
    if (!channel) throw fail('UNKNOWN_BRAND', `the channel of session ${sessionId} is gone`);
    return { channel, userKey: only.userKey };
  }

  /**
   * A bubble deleted from another agent tool: journaled like a delete made here. A bubble this service did not
   * send (another tool sent it) is journaled as a `deleted` item with its serial in the named customer's room,
   * once; without a `user_key` there is no room to put it in.
   */
  async deleted(body: CallbackBody): Promise<CallbackAck> {
    const channel = await this.channelOf(body);
    const serial = requiredString(body, 'serial_number');
    const at = timeOf(body, this.clock.now());
    const bubble = await this.store.journal.findBubble(channel.key, serial);
    if (!bubble) return this.deletedElsewhere(channel, body, serial, at);
    const item = await this.journal.markBubbleDeleted(channel.key, serial, {
      userKey: bubble.userKey,
      sessionId: bubble.sessionId,
      kind: 'deleted',
      text: DELETION_NOTICE,
      timestampUnixMs: at,
      serial,
    });
    return { ok: true, seq: item?.seq ?? 0 };
  }

  private async deletedElsewhere(channel: ChannelRecord, body: CallbackBody, serial: string, at: number): Promise<CallbackAck> {
    const userKey = optionalString(body, 'user_key');
    if (userKey === undefined || userKey === '') return { ok: true, seq: 0 };
    const earlier = await this.store.journal.findBySerial(channel.key, serial);
    if (earlier?.kind === 'deleted' && earlier.userKey === userKey) return { ok: true, seq: earlier.seq };
    const sessionId = (await this.store.journal.getRoom(channel.key, userKey))?.sessionId ?? '';
    const [item] = await this.journal.append(channel.key, [{ userKey, sessionId, kind: 'deleted', text: DELETION_NOTICE, timestampUnixMs: at, serial }]);
    return { ok: true, seq: item?.seq ?? 0 };
  }

  private itemOf(body: CallbackBody, kind: JournalKind, text: string, meta: Record<string, unknown> | null): NewJournalItem {
    return { userKey: userKeyOf(body), sessionId: requiredString(body, 'session_id'), kind, text, timestampUnixMs: timeOf(body, this.clock.now()), meta };
  }

  private async record(item: NewJournalItem, channelKey: string): Promise<CallbackAck> {
    const [stored] = await this.journal.append(channelKey, [item]);
    if (!stored) throw new Error('journal append returned no item');
    return { ok: true, seq: stored.seq };
  }

  private async channelOf(body: CallbackBody): Promise<ChannelRecord> {
    const senderKey = requiredString(body, 'sender_key');
    const channel = await this.access.findBySenderKey(senderKey);
    if (!channel) throw fail('UNKNOWN_BRAND', `sender_key ${senderKey} is not a channel of this service`);
    return channel;
  }
}
