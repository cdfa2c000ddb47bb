import { parseSignalCursor, signalCursor } from '@brandwire/domain';
import type { SignalRecord, Store } from '@brandwire/store';
import { Inject, Injectable } from '@nestjs/common';
import { STORE } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import type { Principal } from '../common/auth/principal';
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
    const cursor = (query.after !== undefined && parseSignalCursor(query.after)) || FROM_START;
    const signals = await this.store.signals.listAfter(channel.key, cursor, query.max ?? 100);
    const last = signals.at(-1);
    return {
      ok: true,
      brand: channel.key,
      signals: signals.map(toEntry),
      next: last ? signalCursor(last.seq, last.part) : (query.after ?? '0'),
    };
  }
}
