import { CONSENT_ALREADY_REQUESTED, consentRequestCheck } from '@brandwire/domain';
import type { ChannelRecord, RoomRecord, Store } from '@brandwire/store';
import type { ShiftableClock } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, STORE } from '../../app/tokens';
import { fail } from '../../common/errors/envelope';
import { SignalBus } from '../../signals/signal-bus';

/** A consultation's consent request, held while its bubble is sent; released when the messenger refuses it. */
export interface ConsentClaim {
  release(): Promise<void>;
}

const NOTHING_CLAIMED: ConsentClaim = { release: () => Promise.resolve() };

/**
 * The rules of the personal-info consent request that are the service's own: Kakao-type channels only
 * (`UNSUPPORTED_CHANNEL`), a webhook or (one instance only) a live signal stream to relay the result to (`NO_WEBHOOK`), and once
 * per consultation (`-520`, allowed again in the customer's next one).
 */
@Injectable()
export class ConsentOnce {
  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
    private readonly bus: SignalBus,
  ) {}

  /**
   * Claims the consultation's one request for the bubble `serial`, or answers why there is none to claim. Without a
   * consultation in progress nothing is claimed: the messenger refuses the send itself (-502).
   */
  async claim(channel: ChannelRecord, userKey: string, room: RoomRecord | undefined, serial: string): Promise<ConsentClaim | typeof CONSENT_ALREADY_REQUESTED> {
    const check = consentRequestCheck('not_requested', channel.type);
    if (!check.ok) throw fail('UNSUPPORTED_CHANNEL', `personal-info consent requests work only on Kakao-type channels; ${channel.key} is ${channel.type}`);
    if (!(await this.store.settings.get(channel.key)).webhookUrl) {
      // the messenger gives the result to the instance its callback reaches: with several, maybe not the stream's
      const singleInstance = this.store.dialect === 'sqlite';
      if (!singleInstance) {
        throw fail('NO_WEBHOOK', `${channel.key} has no webhook (PUT /api/agent/settings/webhook): the consent result is relayed once and kept nowhere, and with several instances (PostgreSQL) only a webhook receives it`);
      }
      if (!this.bus.hasListener(channel.key)) {
        throw fail('NO_WEBHOOK', `${channel.key} has no webhook (PUT /api/agent/settings/webhook) and no open signal stream: the consent result is relayed once and kept nowhere, so it would be lost`);
      }
    }
    if (room?.state !== 'in_progress') return NOTHING_CLAIMED;
    const consultation = { channelKey: channel.key, userKey, sessionId: room.sessionId };
    if (await this.store.consentRequests.reserve(consultation, this.clock.now(), serial)) {
      return { release: () => this.store.consentRequests.release(consultation) };
    }
    return CONSENT_ALREADY_REQUESTED;
  }
}
