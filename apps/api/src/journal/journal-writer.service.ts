import type { JournalItem, NewBubble, NewJournalItem, RecentMatch, Store } from '@brandwire/store';
import { Inject, Injectable } from '@nestjs/common';
import { STORE } from '../app/tokens';
import { SignalBus } from '../signals/signal-bus';

/**
 * The one way events enter the journal; each call is one transaction that also writes the items' signals
 * (the outbox), after which the delivery worker and the live streams are told.
 */
@Injectable()
export class JournalWriter {
  constructor(
    @Inject(STORE) private readonly store: Store,
    private readonly bus: SignalBus,
  ) {}

  async append(channelKey: string, items: readonly NewJournalItem[]): Promise<JournalItem[]> {
    return this.told(channelKey, await this.store.journal.append(channelKey, items));
  }

  /**
   * Journals a send the messenger accepted, as an `agent` item of the customer's current consultation: the one
   * of `send.sessionId` when the caller read the room for the send already ('' for a customer without one),
   * else the room's now.
   */
  async appendAgentSend(
    channelKey: string,
    userKey: string,
    send: { text: string; serial: string; bubbles: readonly NewBubble[]; timestampUnixMs: number; sessionId?: string },
  ): Promise<void> {
    const { sessionId = (await this.store.journal.getRoom(channelKey, userKey))?.sessionId ?? '', ...item } = send;
    await this.append(channelKey, [{ userKey, sessionId, kind: 'agent', ...item }]);
  }

  /** Marks a sent bubble deleted and journals its `deleted` item; undefined when it was deleted already. */
  async markBubbleDeleted(channelKey: string, serial: string, item: NewJournalItem): Promise<JournalItem | undefined> {
    return this.told(channelKey, await this.store.journal.markBubbleDeleted(channelKey, serial, item));
  }

  /** Journals an `ended` or `expired` item unless that consultation's end is journaled already. */
  async appendSessionEnd(channelKey: string, item: NewJournalItem): Promise<JournalItem | undefined> {
    return this.told(channelKey, await this.store.journal.appendSessionEnd(channelKey, item));
  }

  /** Journals a callback's item unless the messenger repeated it (one like it among the customer's latest `window`): its seq either way. */
  async appendUnlessRecent(channelKey: string, item: NewJournalItem, match: RecentMatch, window: number): Promise<number> {
    const { item: stored, earlierSeq } = await this.store.journal.appendUnlessRecent(channelKey, item, match, window);
    this.told(channelKey, stored);
    const seq = stored?.seq ?? earlierSeq;
    if (seq === undefined) throw new Error('journal append returned no item');
    return seq;
  }

  private told<T>(channelKey: string, written: T): T {
    if (written !== undefined) this.bus.written(channelKey);
    return written;
  }
}
