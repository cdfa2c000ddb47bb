import { parseSignalCursor, signalCursor } from '@brandwire/domain';
import { MAX_PART, type SignalRecord, type Store } from '@brandwire/store';
import { Inject, Injectable } from '@nestjs/common';
import { STORE } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import type { Principal } from '../common/auth/principal';
import { fail } from '../common/errors/envelope';
import type { SignalEntryDto, SignalsQueryDto, SignalsResponseDto } from './dto/signals.dto';

export const FROM_START = { seq: 0, part: -1 };

export function toEntry(signal: SignalRecord): SignalEntryDto {
  return { id: signalCursor(signal.seq, signal.part), signal: signal.payload };
}

/** Catch-up reading of a channel's signals for clients without a webhook. */
@Injectable()
export class SignalsService {
  constructor(
    private readonly access: BrandAccessService,
    @Inject(STORE) private readonly store: Store,
  ) {}

  async after(principal: Principal, query: SignalsQueryDto): Promise<SignalsResponseDto> {
    const channel = await this.access.channelFor(principal, query.brand, 'brand');
    if (query.after === 'now') return { ok: true, brand: channel.key, signals: [], next: String(await this.store.journal.lastSeq(channel.key)) };
    const cursor = (query.after !== undefined && parseSignalCursor(query.after)) || FROM_START;
    const signals = await this.store.signals.listAfter(channel.key, cursor, query.max ?? 100);
    const last = signals.at(-1);
    if (!last) await this.refuseCursorPastTheEnd(channel.key, cursor.seq, 'after');
    return {
      ok: true,
      brand: channel.key,
      signals: signals.map(toEntry),
      next: last ? signalCursor(last.seq, last.part) : (query.after ?? '0'),
    };
  }

  /** After every signal written so far: a stream from here has only what happens from now on. */
  async endCursor(channelKey: string): Promise<{ seq: number; part: number }> {
    return { seq: await this.store.journal.lastSeq(channelKey), part: MAX_PART };
  }

  /** A cursor past the channel's last seq was not given by this service: kept, it would skip the signals to come. */
  async refuseCursorPastTheEnd(channelKey: string, seq: number, name: string): Promise<void> {
    const lastSeq = await this.store.journal.lastSeq(channelKey);
    if (seq > lastSeq) throw fail('BAD_REQUEST', `${name} ${seq} is past the channel's last seq ${lastSeq}: start from 0, or from an id this service gave`);
  }
}
