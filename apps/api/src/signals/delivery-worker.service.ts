import { randomUUID } from 'node:crypto';
import { retryDelayMs, retryPeriodOver } from '@brandwire/domain';
import type { SignalRecord, Store } from '@brandwire/store';
import type { ShiftableClock } from '@brandwire/upstream';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CLOCK, CONFIG, STORE } from '../app/tokens';
import type { Config } from '../config/config';
import { SignalBus } from './signal-bus';
import { WEBHOOK_SENDER } from './signal-tokens';
import type { WebhookSender } from './webhook-sender';

const IDLE_POLL_MS = 250;
const BATCH = 2_000;
const PARALLEL_CUSTOMERS = 64;
/** A customer's signals in one batch at most, so one customer's backlog leaves room for the others'. */
const PER_CUSTOMER = 500;
const OPEN_CIRCUIT_AFTER = 8;
/** the longest a channel waits for its next round while nothing of it is due (a new signal's first attempt waits as long at most) */
const MAX_PAUSE_MS = 2_000;

/** The webhook-id of a signal: stable across retries and instances, so receivers can drop duplicates. */
export function webhookId(signal: { channelKey: string; seq: number; part: number }): string {
  return `sig_${signal.channelKey}_${signal.seq}_${signal.part}`;
}

/**
 * Delivers the outbox to each channel's webhook, at least once, in `seq` order per customer. A channel is
 * delivered by the instance holding its lease; customers are delivered in parallel, each one's signals one after
 * the other; a failed signal holds back that customer's later ones until its retry succeeds.
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly owner = randomUUID();
  private readonly logger = new Logger('DeliveryWorker');
  private running = false;
  /** set when signals were written since the round began: the next round starts at once */
  private dirty = true;
  private readonly pausedUntil = new Map<string, number>();
  /** until when this instance holds each channel's lease, as last written */
  private readonly leaseUntil = new Map<string, number>();
  /** the round delivering each channel now: told to stop when the channel's webhook changes */
  private readonly rounds = new Map<string, { lost: boolean }>();
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    private readonly bus: SignalBus,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.unsubscribe = this.bus.onWritten(() => {
      this.dirty = true;
      this.wake?.();
    });
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    this.unsubscribe?.();
    this.wake?.();
    await this.loop;
    this.sender.close();
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.dirty = false;
      let worked = false;
      try {
        worked = await this.tick();
      } catch (error) {
        this.logger.error(`delivery round failed: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!this.running) break;
      if (this.dirty && worked) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, IDLE_POLL_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    // every lease this instance holds, also of a channel it has just emptied: the next instance (a restart, another
    // one) takes the channel at once instead of after DELIVERY_LEASE_MS
    const held = new Set([...this.leaseUntil.keys(), ...(await this.store.signals.channelsWithPending().catch(() => []))]);
    for (const channel of held) {
      await this.store.signals.releaseChannel(channel, this.owner).catch(() => undefined);
      this.leaseUntil.delete(channel);
    }
  }

  /**
   * The channel's webhook was changed or removed (through this instance): a round delivering it stops before its
   * next attempt, so nothing more goes to the URL it had; other instances notice within a lease renewal.
   */
  async webhookChanged(channelKey: string, url: string | null): Promise<void> {
    const round = this.rounds.get(channelKey);
    if (round) round.lost = true;
    // what waited for delivery to a removed webhook is not sent anywhere (nor to one set later); it stays listed for catch-up
    if (url === null) await this.store.signals.stopPendingWithoutWebhook(channelKey);
  }

  /** One round: every channel with pending signals whose lease this instance holds or can take. True if any was worked. */
  async tick(): Promise<boolean> {
    let worked = false;
    for (const channelKey of await this.store.signals.channelsWithPending()) {
      if ((this.pausedUntil.get(channelKey) ?? 0) > Date.now()) continue;
      const now = this.clock.now();
      if (!(await this.claim(channelKey))) continue;
      const settings = await this.store.settings.get(channelKey);
      if (!settings.webhookUrl) continue;
      worked = true;
      const lease = this.holdLease(channelKey, settings.webhookUrl);
      this.rounds.set(channelKey, lease);
      try {
        const round = await this.deliverChannel(channelKey, settings.webhookUrl, settings.webhookSecret, now, lease);
        this.afterRound(channelKey, round, now);
      } finally {
        lease.stop();
        this.rounds.delete(channelKey);
      }
    }
    return worked;
  }

  /**
   * Takes or renews the channel's lease. A lease with more than half its time left is not written again: every
   * claim is a committed write, and rounds come many times a second under load.
   */
  private async claim(channelKey: string): Promise<boolean> {
    const now = Date.now();
    if ((this.leaseUntil.get(channelKey) ?? 0) - now > this.config.deliveryLeaseMs / 2) return true;
    const until = now + this.config.deliveryLeaseMs;
    const held = await this.store.signals.claimChannel(channelKey, this.owner, now, until);
    if (held) this.leaseUntil.set(channelKey, until);
    else this.leaseUntil.delete(channelKey);
    return held;
  }

  /**
   * A channel whose round delivered nothing, and has signals waiting out their back-off, is left alone until
   * the earliest of them is due (at most MAX_PAUSE_MS, so a new signal's first attempt is not held up longer):
   * a failed signal is tried again on its schedule (1 s, 2 s, 4 s, … up to 10 minutes), never sooner.
   */
  private afterRound(channelKey: string, round: ChannelRound, now: number): void {
    if (round.delivered > 0 || round.nextDueMs === undefined) {
      this.pausedUntil.delete(channelKey);
      return;
    }
    this.pausedUntil.set(channelKey, Date.now() + Math.max(0, Math.min(MAX_PAUSE_MS, round.nextDueMs - now)));
  }

  /**
   * Renews the channel's lease while its deliveries run; `lost` turns true if another instance took it, or if the
   * channel's webhook is no longer `url` (changed or removed through another instance).
   */
  private holdLease(channelKey: string, url: string): { lost: boolean; stop: () => void } {
    const lease = { lost: false, stop: () => clearInterval(timer) };
    const timer = setInterval(() => {
      void this.claim(channelKey)
        .then(async (held) => held && (await this.store.settings.get(channelKey)).webhookUrl === url)
        .then(
          (current) => (lease.lost ||= !current),
          () => (lease.lost = true),
        );
    }, Math.max(100, Math.floor(this.config.deliveryLeaseMs / 3)));
    return lease;
  }

  private async deliverChannel(channelKey: string, url: string, secret: string, now: number, lease: { lost: boolean }): Promise<ChannelRound> {
    const pending = await this.store.signals.pending(channelKey, BATCH, { perCustomer: PER_CUSTOMER, nowMs: now });
    const chains = new Map<string, SignalRecord[]>();
    for (const signal of pending) {
      const chain = chains.get(signal.userKey);
      if (chain) chain.push(signal);
      else chains.set(signal.userKey, [signal]);
    }
    const round: Round = { delivered: [], failed: [], failuresInARow: 0 };
    const queue = [...chains.values()];
    const workers = Array.from({ length: Math.min(PARALLEL_CUSTOMERS, queue.length) }, async () => {
      for (let chain = queue.shift(); chain && round.failuresInARow < OPEN_CIRCUIT_AFTER; chain = queue.shift()) {
        await this.deliverChain(chain, url, secret, now, lease, round);
      }
    });
    await Promise.all(workers);
    await this.store.signals.markDelivered(round.delivered);
    await this.store.signals.markFailed(round.failed);
    const failed = round.failed.find((f) => !f.dead);
    if (failed) {
      // the url is not logged: receivers often carry their secret in it
      this.logger.warn(`webhook of ${channelKey}: delivery failed (${failed.error}); it is tried again from ${new Date(failed.nextAttemptMs).toISOString()}`);
    }
    // The endpoint answered: whatever waits for a retry is due now, so a receiver that is back gets it all.
    if (round.delivered.length > 0) await this.store.signals.expedite(channelKey, now);
    return { delivered: round.delivered.length, nextDueMs: nextDue(chains.values(), round) };
  }

  /**
   * Delivers one customer's signals in order, stopping at the first one not due or failing. Outcomes are
   * collected and written together (a crash before that only repeats deliveries, under the same webhook-id).
   */
  private async deliverChain(chain: readonly SignalRecord[], url: string, secret: string, now: number, lease: { lost: boolean }, round: Round): Promise<void> {
    for (const signal of chain) {
      if (!this.running || lease.lost || signal.nextAttemptMs > now || round.failuresInARow >= OPEN_CIRCUIT_AFTER) break;
      const attempt = await this.sender.send(url, secret, webhookId(signal), JSON.stringify(signal.payload), Date.now());
      if (attempt.ok) {
        round.delivered.push(signal);
        round.failuresInARow = 0;
        continue;
      }
      round.failuresInARow += 1;
      const attempts = signal.attempts + 1;
      // the back-off counts from the failed answer: a receiver that is slow to fail gets its pause all the same
      const failedAt = this.clock.now();
      const dead = retryPeriodOver(signal.createdMs, failedAt);
      round.failed.push({ key: signal, nextAttemptMs: failedAt + retryDelayMs(attempts, Math.random()), error: attempt.error ?? 'failed', dead });
      if (dead) this.logger.warn(`gave up delivering ${webhookId(signal)} after ${attempts} attempts: ${attempt.error ?? ''}`);
      if (!dead) break;
    }
  }
}

/** When the channel's next signal is due (clock ms): the earliest head of a customer's chain still waiting, or a retry just scheduled. */
function nextDue(chains: Iterable<readonly SignalRecord[]>, round: Round): number | undefined {
  let due: number | undefined;
  const failed = new Set(round.failed.filter((f) => !f.dead).map((f) => f.key));
  const delivered = new Set(round.delivered);
  for (const chain of chains) {
    const head = chain.find((signal) => !delivered.has(signal));
    if (head === undefined || failed.has(head)) continue;
    due = Math.min(due ?? Infinity, head.nextAttemptMs);
  }
  for (const f of round.failed) if (!f.dead) due = Math.min(due ?? Infinity, f.nextAttemptMs);
  return due;
}

interface ChannelRound {
  delivered: number;
  /** when the earliest signal left pending is due (clock ms); undefined when none is left */
  nextDueMs: number | undefined;
}

interface Round {
  delivered: SignalRecord[];
  failed: Array<{ key: SignalRecord; nextAttemptMs: number; error: string; dead: boolean }>;
  /** failures since the last success: past OPEN_CIRCUIT_AFTER the round stops knocking on a dead endpoint */
  failuresInARow: number;
}
