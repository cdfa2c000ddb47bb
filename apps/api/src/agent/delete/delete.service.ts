import { CONSENT_BUBBLE_TEXT, DELETION_NOTICE, alreadyDeletedMessage, LOOKBACK_DEFAULT_S, LOOKBACK_MAX_S, type SentBubble, checkDeletable, findBubbleByText, httpStatusOf, isUpstreamSuccess } from '@brandwire/domain';
import type { BubbleRecord, ChannelRecord, Store } from '@brandwire/store';
import type { MessengerPort, ShiftableClock } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, MESSENGER, STORE } from '../../app/tokens';
import { BrandAccessService } from '../../common/auth/brand-access.service';
import type { Principal } from '../../common/auth/principal';
import { KeyedTurns } from '../../common/concurrency/keyed-turns';
import { fail } from '../../common/errors/envelope';
import { JournalWriter } from '../../journal/journal-writer.service';
import type { DeleteDto, DeleteResponseDto } from './dto/delete.dto';

export interface DeleteOutcome {
  status: number;
  body: DeleteResponseDto;
}

function toSentBubble(b: BubbleRecord): SentBubble {
  return { serial: b.serial, kind: b.kind, text: b.text, sentAtMs: b.sentAtMs, groupSerial: null, groupIndex: b.groupIndex, deletedAtMs: b.deletedAtMs };
}

/**
 * As toSentBubble, with the text the customer sees and the journal keeps: a consent bubble stores none (its
 * text is the messenger's), yet a delete by that text must find it to answer that it cannot be deleted.
 */
function toMatchedBubble(b: BubbleRecord): SentBubble {
  return { ...toSentBubble(b), text: b.kind === 'consent' ? CONSENT_BUBBLE_TEXT : b.text };
}

/** How far back in a customer's journal a serial not sent to them is looked for among their own messages. */
const OWN_MESSAGES_LOOKED_AT = 1_000;

/** how long a delete holds its bubble at most (the messenger call's timeout is shorter) */
const CLAIM_MS = 30_000;
const CLAIM_POLL_MS = 25;

function isOutcome(found: BubbleRecord | DeleteOutcome): found is DeleteOutcome {
  return 'status' in found;
}

function alreadyDeleted(serial: string): DeleteOutcome {
  return { status: 409, body: { ok: false, code: 'ALREADY_DELETED', message: alreadyDeletedMessage(serial), serial } };
}

/** Deletes one sent bubble within 24 hours: by serial, or by its exact text sent recently. Never billed. */
@Injectable()
export class DeleteService {
  constructor(
    private readonly access: BrandAccessService,
    private readonly journal: JournalWriter,
    @Inject(STORE) private readonly store: Store,
    @Inject(MESSENGER) private readonly messenger: MessengerPort,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
  ) {}

  private readonly turns = new KeyedTurns();

  async delete(principal: Principal, dto: DeleteDto): Promise<DeleteOutcome> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    // null is no value, as JSON clients send an unset field
    if ((dto.serial == null) === (dto.text == null)) throw fail('BAD_REQUEST', 'give exactly one of serial and text');
    // the same delete sent twice at once: the second finds the bubble deleted (ALREADY_DELETED), not the messenger's
    // refusal. One customer's deletes take turns in this process; across instances a delete claims its bubble.
    return this.turns.run(`${channel.key}\u0000${dto.userKey}`, () => this.deleteNow(channel, dto));
  }

  private async deleteNow(channel: ChannelRecord, dto: DeleteDto): Promise<DeleteOutcome> {
    const now = this.clock.now();
    const bubble = dto.serial != null ? await this.bySerial(channel, dto.userKey, dto.serial) : await this.byText(channel, dto.userKey, dto.text ?? '', dto.withinSeconds, now);
    if (isOutcome(bubble)) return bubble;

    const check = checkDeletable(toSentBubble(bubble), now);
    if (!check.ok) return { status: httpStatusOf(check.code), body: { ok: false, code: check.code, message: check.message, serial: bubble.serial } };

    if (!(await this.claim(channel.key, bubble.serial))) return alreadyDeleted(bubble.serial);
    try {
      return await this.deleteClaimed(channel, dto.userKey, bubble, now);
    } finally {
      await this.store.bubbleDeleteClaims.release(channel.key, bubble.serial);
    }
  }

  /**
   * Claims the bubble for this delete, waiting while another instance deletes it; false when that one did. A
   * claim lapses after CLAIM_MS, longer than a messenger call may take, so the wait is bounded.
   */
  private async claim(channelKey: string, serial: string): Promise<boolean> {
    for (;;) {
      const now = Date.now();
      if (await this.store.bubbleDeleteClaims.claim(channelKey, serial, now, now + CLAIM_MS)) return true;
      if ((await this.store.journal.findBubble(channelKey, serial))?.deletedAtMs != null) return false;
      await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    }
  }

  private async deleteClaimed(channel: ChannelRecord, userKey: string, bubble: BubbleRecord, now: number): Promise<DeleteOutcome> {
    if ((await this.store.journal.findBubble(channel.key, bubble.serial))?.deletedAtMs != null) return alreadyDeleted(bubble.serial);
    const result = await this.messenger.deleteMessage({ senderKey: channel.senderKey, userKey, serialNumber: bubble.serial });
    if (!isUpstreamSuccess(result.code)) {
      return { status: 200, body: { ok: false, code: result.code, message: result.message ?? 'the messenger refused the delete', serial: bubble.serial } };
    }
    const deleted = await this.journal.markBubbleDeleted(channel.key, bubble.serial, {
      userKey,
      sessionId: bubble.sessionId,
      kind: 'deleted',
      text: DELETION_NOTICE,
      timestampUnixMs: now,
      serial: bubble.serial,
    });
    if (!deleted) return alreadyDeleted(bubble.serial);
    return { status: 200, body: { ok: true, code: '0', message: null, serial: bubble.serial } };
  }

  /** The bubble sent with this serial, or the refusal of a delete of one of the customer's own messages. */
  private async bySerial(channel: ChannelRecord, userKey: string, serial: string): Promise<BubbleRecord | DeleteOutcome> {
    const bubble = await this.store.journal.findBubble(channel.key, serial);
    if (bubble && bubble.userKey === userKey) return bubble;
    // only on the way to a refusal: the customer's latest items, for a message of theirs with this serial
    if (!bubble && (await this.isOwnMessage(channel, userKey, serial))) {
      const message = `Message ${serial} was sent by the customer ${userKey}; a customer's own messages cannot be deleted.`;
      return { status: httpStatusOf('NOT_DELETABLE'), body: { ok: false, code: 'NOT_DELETABLE', message, serial } };
    }
    throw fail('NOT_FOUND', `no bubble ${serial} was sent to ${userKey} on ${channel.key}`);
  }

  /** Whether the customer sent a message with this serial (journaled with the messenger's serial_number) lately. */
  private async isOwnMessage(channel: ChannelRecord, userKey: string, serial: string): Promise<boolean> {
    const items = await this.store.journal.listMessages(channel.key, userKey, OWN_MESSAGES_LOOKED_AT);
    return items.some((item) => item.kind === 'message' && item.meta?.['messengerSerial'] === serial);
  }

  private async byText(channel: ChannelRecord, userKey: string, text: string, withinSeconds: number | undefined, now: number): Promise<BubbleRecord> {
    const lookback = withinSeconds ?? LOOKBACK_DEFAULT_S;
    const recent = await this.store.journal.listRecentBubbles(channel.key, userKey, now - lookback * 1000);
    const found = findBubbleByText(recent.map(toMatchedBubble), text, now, lookback);
    const bubble = found && recent.find((b) => b.serial === found.serial);
    if (!bubble) {
      const next = lookback < LOOKBACK_MAX_S ? `widen withinSeconds (up to ${LOOKBACK_MAX_S}) or pass serial` : 'pass serial (a message older than 24 hours cannot be deleted)';
      throw fail('NOT_FOUND', `no message with exactly this text was sent to ${userKey} in the last ${lookback} seconds; ${next}`);
    }
    return bubble;
  }
}
