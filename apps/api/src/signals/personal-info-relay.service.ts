import type { SignalPayload } from '@brandwire/domain';
import type { ChannelRecord, Store } from '@brandwire/store';
import type { ShiftableClock } from '@brandwire/upstream';
import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { CLOCK, STORE } from '../app/tokens';
import { HeldConsents } from './held-consents';
import { SignalBus } from './signal-bus';
import { WEBHOOK_SENDER } from './signal-tokens';
import { webhookId } from './delivery-worker.service';
import type { WebhookSender } from './webhook-sender';

const ATTEMPT_DELAYS_MS = [0, 1_000, 2_000, 4_000, 8_000, 16_000];
/** how often a held consent result looks whether the customer's earlier signals have left the outbox */
const TURN_POLL_MS = 250;

/**
 * The consent result (nickname and phone number) is relayed once and never stored: it goes to the channel's
 * webhook from memory, with a few quick retries, and to live signal streams. Without a webhook it is dropped.
 * Its seq is reserved from the channel's sequence; no journal item holds it. Like every signal it reaches the
 * webhook in the customer's seq order: it waits in memory while earlier signals of the customer are still to be
 * delivered (they are, or are given up after their retry period), and the customer's later signals wait behind it
 * (the delivery worker stops at its seq, see HeldConsents) until it is delivered or dropped. Each attempt goes to
 * the webhook as it is then:
 * removed meanwhile, the values are dropped, never sent to the URL the Admin disconnected. A result still held
 * when the service stops gets one last attempt then, ahead of its turn: late in order is better than lost.
 */
@Injectable()
export class PersonalInfoRelay implements BeforeApplicationShutdown {
  private readonly logger = new Logger('PersonalInfoRelay');
  private closed = false;
  /** results not yet delivered, each with the release of its seq (the customer's later signals wait for it) */
  private readonly held = new Map<SignalPayload, () => void>();

  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    private readonly bus: SignalBus,
    private readonly consents: HeldConsents,
  ) {}

  async relay(channel: ChannelRecord, userKey: string, values: { nickname: string; phoneNumber: string }): Promise<void> {
    const settings = await this.store.settings.get(channel.key);
    const seq = await this.store.journal.reserveSeq(channel.key);
    const payload: SignalPayload = { kind: 'personal_info', seq, brandKey: channel.key, userKey, timestampUnixMs: this.clock.now(), ...values };
    this.bus.ephemeral(payload);
    if (!settings.webhookUrl) return;
    const release = this.consents.hold(channel.key, userKey, seq);
    this.held.set(payload, release);
    void this.deliverInTurn(payload)
      .then((outcome) => {
        if (outcome !== 'delivered') this.logger.warn(`consent signal seq ${payload.seq} not delivered (${outcome}); its values were not kept`);
      })
      .catch((error: unknown) => {
        this.logger.warn(`could not deliver consent signal seq ${payload.seq}: ${String(error)}; its values were not kept`);
      })
      .finally(() => {
        this.held.delete(payload);
        release();
      });
  }

  /** before the delivery worker's shutdown, which closes the webhook sender */
  async beforeApplicationShutdown(): Promise<void> {
    this.closed = true;
    const last = [...this.held].map(async ([payload, release]) => {
      this.held.delete(payload);
      const outcome = await this.attempt(payload).finally(release);
      if (outcome !== 'delivered') this.logger.warn(`consent signal seq ${payload.seq} not delivered before stopping (${outcome}); its values were not kept`);
    });
    await Promise.allSettled(last);
  }

  private async deliverInTurn(payload: SignalPayload): Promise<Outcome> {
    while (await this.store.signals.hasPendingBefore(payload.brandKey, payload.userKey, payload.seq)) {
      await pause(TURN_POLL_MS);
      if (this.closed) return 'stopping';
      // waiting for a webhook that was removed would be waiting for ever, and so would waiting for one whose URL the
      // URL policy refuses now (the earlier signals are never sent to it): the values are dropped at once
      const webhook = await this.webhookOf(payload.brandKey);
      if (!webhook) return 'webhook removed';
      if (this.sender.refusal(webhook.url) !== undefined) return 'webhook URL not allowed';
    }
    let outcome: Outcome = 'stopping';
    for (const delay of ATTEMPT_DELAYS_MS) {
      if (delay > 0) await pause(delay);
      if (this.closed) return 'stopping';
      outcome = await this.attempt(payload);
      if (outcome !== 'refused') return outcome;
    }
    return outcome;
  }

  /** One attempt to the channel's webhook as it is now: the Admin may have changed or removed it meanwhile. */
  private async attempt(payload: SignalPayload): Promise<Outcome> {
    const webhook = await this.webhookOf(payload.brandKey);
    if (!webhook) return 'webhook removed';
    const id = webhookId({ channelKey: payload.brandKey, seq: payload.seq, part: 0 });
    const sent = await this.sender.send(webhook.url, webhook.secret, id, JSON.stringify(payload), Date.now());
    // a URL the URL policy refuses (stored under another one) would be refused at every retry
    return sent.ok ? 'delivered' : sent.urlRefused !== undefined ? 'webhook URL not allowed' : 'refused';
  }

  private async webhookOf(channelKey: string): Promise<{ url: string; secret: string } | undefined> {
    const settings = await this.store.settings.get(channelKey);
    return settings.webhookUrl ? { url: settings.webhookUrl, secret: settings.webhookSecret } : undefined;
  }
}

type Outcome = 'delivered' | 'refused' | 'webhook removed' | 'webhook URL not allowed' | 'stopping';

/** A pause that does not keep a closing process alive. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
