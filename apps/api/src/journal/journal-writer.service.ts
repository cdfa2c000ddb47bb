import type { JournalItem, NewJournalItem, Store } from '@brandwire/store';
import { Inject, Injectable } from '@nestjs/common';
import { STORE } from '../app/tokens';

/** The one way events enter the journal; each call is one transaction. */
@Injectable()
export class JournalWriter {
  constructor(@Inject(STORE) private readonly store: Store) {}

  append(channelKey: string, items: readonly NewJournalItem[]): Promise<JournalItem[]> {
    return this.store.journal.append(channelKey, items);
  }

  /** Marks a sent bubble deleted and journals its `deleted` item; undefined when it was deleted already. */
  markBubbleDeleted(channelKey: string, serial: string, item: NewJournalItem): Promise<JournalItem | undefined> {
    return this.store.journal.markBubbleDeleted(channelKey, serial, item);
  }

  /** Journals an `ended` or `expired` item unless that consultation's end is journaled already. */
  appendSessionEnd(channelKey: string, item: NewJournalItem): Promise<JournalItem | undefined> {
    return this.store.journal.appendSessionEnd(channelKey, item);
  }
}
