import { type Operation, PLAN_EXHAUSTED_MESSAGE, billingDay, isBillable } from '@brandwire/domain';
import type { ChannelRecord, ServedConsultation, Store } from '@brandwire/store';
import type { ShiftableClock } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, STORE } from '../app/tokens';
import { fail } from '../common/errors/envelope';
import type { Config } from '../config/config';

/** A count taken for a send; given back when the messenger refuses the send. */
export interface Charge {
  release(): Promise<void>;
}

const NO_CHARGE: Charge = { release: () => Promise.resolve() };

/**
 * The plan's consultation count: sending commands cost one count the first time a customer's consultation is
 * served on a day (the service clock's day in BRANDWIRE_TIMEZONE); everything else is free.
 */
@Injectable()
export class BillingService {
  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** Takes a count for a send before it goes out; 402 `PLAN_EXHAUSTED` when the plan is used up. */
  async charge(channel: ChannelRecord, userKey: string, op: Operation): Promise<Charge> {
    if (!isBillable(op)) return NO_CHARGE;
    const room = await this.store.journal.getRoom(channel.key, userKey);
    // Without a consultation in progress the messenger refuses the send (-502): nothing is served, nothing is billed.
    if (room?.state !== 'in_progress') return NO_CHARGE;
    const served: ServedConsultation = {
      channelKey: channel.key,
      sessionId: room.sessionId,
      userKey,
      day: billingDay(this.clock.now(), this.config.timeZone),
    };
    const reservation = await this.store.billing.reserve(served);
    switch (reservation) {
      case 'free':
        return NO_CHARGE;
      case 'charged':
        return { release: () => this.store.billing.release(served) };
      case 'exhausted':
        throw fail('PLAN_EXHAUSTED', `${PLAN_EXHAUSTED_MESSAGE} (channel ${channel.key}, plan of ${channel.planConsultations})`);
      default: {
        const unreachable: never = reservation;
        throw new Error(`unknown reservation ${String(unreachable)}`);
      }
    }
  }
}
