import { type Operation, PLAN_EXHAUSTED_MESSAGE, billingDay, isBillable } from '@brandwire/domain';
import type { ChannelRecord, RoomRecord, ServedConsultation, Store } from '@brandwire/store';
import type { ShiftableClock } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, STORE } from '../app/tokens';
import { fail } from '../common/errors/envelope';
import type { Config } from '../config/config';

/** A count taken for a send; given back when the messenger refuses the send. */
export interface Charge {
  release(): Promise<void>;
  /** The messenger accepted the send: the count is final and will never be given back. */
  keep(): Promise<void>;
}

const NO_CHARGE: Charge = { release: () => Promise.resolve(), keep: () => Promise.resolve() };

/** Served consultations remembered at most, per day: far more than a day's consultations of one instance. */
const MAX_KEPT = 100_000;

/**
 * The consultations this instance knows are served on the current billing day for good: their count was taken
 * here and kept (the messenger accepted the send). Their `served_consultations` row can never go away (a row
 * is deleted only by the release of the reservation that inserted it, and a kept one is never released, on
 * any instance), so reserving for them again would always answer 'free': the check and its write are skipped.
 */
class KeptConsultations {
  private day = '';
  private readonly keys = new Set<string>();

  has(c: ServedConsultation): boolean {
    return c.day === this.day && this.keys.has(keyOf(c));
  }

  add(c: ServedConsultation): void {
    if (c.day !== this.day || this.keys.size >= MAX_KEPT) {
      // a new day (or too many remembered): only the new day's consultations are worth remembering
      this.keys.clear();
      this.day = c.day;
    }
    this.keys.add(keyOf(c));
  }
}

function keyOf(c: ServedConsultation): string {
  return `${c.channelKey}\u0000${c.sessionId}\u0000${c.userKey}`;
}

/**
 * The plan's consultation count: sending commands cost one count the first time a customer's consultation is
 * served on a day (the service clock's day in BRANDWIRE_TIMEZONE); everything else is free.
 */
@Injectable()
export class BillingService {
  private readonly kept = new KeptConsultations();
  /** the billing day of the last minute asked for (every zone's offset is whole minutes) */
  private dayMinute = Number.NaN;
  private dayOfMinute = '';

  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** Takes a count for a send before it goes out; 402 `PLAN_EXHAUSTED` when the plan is used up. */
  async charge(channel: ChannelRecord, userKey: string, op: Operation): Promise<Charge> {
    if (!isBillable(op)) return NO_CHARGE;
    return this.chargeInRoom(channel, userKey, op, await this.store.journal.getRoom(channel.key, userKey));
  }

  /** As `charge`, for a caller that has just read the customer's room (`undefined`: the customer has none). */
  async chargeInRoom(channel: ChannelRecord, userKey: string, op: Operation, room: RoomRecord | undefined): Promise<Charge> {
    if (!isBillable(op)) return NO_CHARGE;
    // Without a consultation in progress the messenger refuses the send (-502): nothing is served, nothing is billed.
    if (room?.state !== 'in_progress') return NO_CHARGE;
    const served: ServedConsultation = { channelKey: channel.key, sessionId: room.sessionId, userKey, day: this.today() };
    if (this.kept.has(served)) return NO_CHARGE;
    const reservation = await this.store.billing.reserve(served);
    const keep = async (): Promise<void> => {
      // another send's reservation may be in flight: once this one is accepted, that one cannot give the count back
      await this.store.billing.keep(served);
      this.kept.add(served);
    };
    switch (reservation) {
      case 'free':
        return { release: () => Promise.resolve(), keep };
      case 'charged':
        return { release: () => this.store.billing.release(served), keep };
      case 'exhausted': {
        // the channel record may be a few seconds old; the plan an Admin just set is the one to name
        const plan = (await this.store.directory.findChannel(channel.key))?.planConsultations ?? channel.planConsultations;
        throw fail('PLAN_EXHAUSTED', `${PLAN_EXHAUSTED_MESSAGE} (channel ${channel.key}, plan of ${plan})`);
      }
      default: {
        const unreachable: never = reservation;
        throw new Error(`unknown reservation ${String(unreachable)}`);
      }
    }
  }

  /**
   * The count of a send the messenger had delivered in an earlier attempt (its answer lost), in the consultation it
   * was delivered in: taken now, when that one has ended, unless the plan ran out meanwhile (it was served all the same).
   */
  async chargeDelivered(channel: ChannelRecord, userKey: string, op: Operation, sessionId: string): Promise<void> {
    if (!isBillable(op)) return;
    const served: ServedConsultation = { channelKey: channel.key, sessionId, userKey, day: this.today() };
    if (this.kept.has(served)) return;
    if ((await this.store.billing.reserve(served)) === 'exhausted') return;
    await this.store.billing.keep(served);
    this.kept.add(served);
  }

  private today(): string {
    const now = this.clock.now();
    const minute = Math.floor(now / 60_000);
    if (minute !== this.dayMinute) {
      this.dayOfMinute = billingDay(now, this.config.timeZone);
      this.dayMinute = minute;
    }
    return this.dayOfMinute;
  }
}
