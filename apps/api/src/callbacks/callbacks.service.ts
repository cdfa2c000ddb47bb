import type { JournalKind } from '@brandwire/domain';
import type { ChannelRecord, Store } from '@brandwire/store';
import type { ShiftableClock } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, STORE } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import { fail } from '../common/errors/envelope';
import { JournalWriter } from '../journal/journal-writer.service';
import { type CallbackBody, objectOrNull, optionalString, requiredString, timeOf } from './callback-body';
import { messageText } from './message-text';
import { sessionEnding } from '../journal/session-ending';
import { PersonalInfoRelay } from '../signals/personal-info-relay.service';

export interface CallbackAck {
  ok: true;
  seq: number;
}


/** Turns the messenger's callbacks into journal items. */
@Injectable()
export class CallbacksService {
  constructor(
    private readonly access: BrandAccessService,
    private readonly journal: JournalWriter,
    private readonly personalInfoRelay: PersonalInfoRelay,
    @Inject(STORE) private readonly store: Store,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
  ) {}

  async message(body: CallbackBody): Promise<CallbackAck> {
    const channel = await this.channelOf(body);
    return this.record(channel, body, 'message', messageText(body));
  }

  async reference(body: CallbackBody): Promise<CallbackAck> {
    const channel = await this.channelOf(body);
    const meta = { reference: objectOrNull(body, 'reference') ?? {}, lastReference: objectOrNull(body, 'last_reference'), appUserId: optionalString(body, 'app_user_id') ?? null };
    return this.record(channel, body, 'reference', 'Consultation started', meta);
  }

  /** The messenger reports every end the same way; the service tells an end it asked for from an expiry. */
  async sessionOver(body: CallbackBody): Promise<CallbackAck> {
    const channel = await this.channelOf(body);
    const userKey = requiredString(body, 'user_key');
    const sessionId = requiredString(body, 'session_id');
    const reason = optionalString(body, 'reason');
    const botEvent = optionalString(body, 'bot_event');
    const room = await this.store.journal.getRoom(channel.key, userKey);
    const askedToEnd = room?.endRequestedSession === sessionId;
    const kind: JournalKind = reason === 'expired' || (reason === undefined && !askedToEnd) ? 'expired' : 'ended';
    const ending = sessionEnding(kind === 'expired' ? 'expired' : (reason ?? 'agent_end'), botEvent);
    const item = await this.journal.appendSessionEnd(channel.key, {
      userKey,
      sessionId,
      kind,
      text: ending.text,
      timestampUnixMs: timeOf(body, this.clock.now()),
      meta: reason ? { reason, ...(botEvent ? { botEvent } : {}) } : null,
    });
    if (item) return { ok: true, seq: item.seq };
    const conversation = await this.store.journal.findConversation(channel.key, sessionId);
    return { ok: true, seq: conversation?.lastSeq ?? 0 };
  }

  /** Consent given: the values are relayed from memory and never stored (see PersonalInfoRelay). */
  async personalInfo(body: CallbackBody): Promise<{ ok: true }> {
    const channel = await this.channelOf(body);
    await this.personalInfoRelay.relay(channel, requiredString(body, 'user_key'), {
      nickname: requiredString(body, 'nickname'),
      phoneNumber: requiredString(body, 'phone_number'),
    });
    return { ok: true };
  }

  /** A bubble deleted from another agent tool: journaled like a delete made here. */
  async deleted(body: CallbackBody): Promise<CallbackAck> {
    const channel = await this.channelOf(body);
    const serial = requiredString(body, 'serial_number');
    const bubble = await this.store.journal.findBubble(channel.key, serial);
    if (!bubble) return { ok: true, seq: 0 };
    const item = await this.journal.markBubbleDeleted(channel.key, serial, {
      userKey: bubble.userKey,
      sessionId: bubble.sessionId,
      kind: 'deleted',
      text: 'Message deleted',
      timestampUnixMs: timeOf(body, this.clock.now()),
      serial,
    });
    return { ok: true, seq: item?.seq ?? 0 };
  }

  private async record(channel: ChannelRecord, body: CallbackBody, kind: JournalKind, text: string, meta: Record<string, unknown> | null = null): Promise<CallbackAck> {
    const [item] = await this.journal.append(channel.key, [
      {
        userKey: requiredString(body, 'user_key'),
        sessionId: requiredString(body, 'session_id'),
        kind,
        text,
        timestampUnixMs: timeOf(body, this.clock.now()),
        meta,
      },
    ]);
    if (!item) throw new Error('journal append returned no item');
    return { ok: true, seq: item.seq };
  }

  private async channelOf(body: CallbackBody): Promise<ChannelRecord> {
    const senderKey = requiredString(body, 'sender_key');
    const channel = await this.access.findBySenderKey(senderKey);
    if (!channel) throw fail('UNKNOWN_BRAND', `sender_key ${senderKey} is not a channel of this service`);
    return channel;
  }
}
