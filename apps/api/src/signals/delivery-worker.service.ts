import { randomUUID } from 'node:crypto';
import { retryDelayMs, retryPeriodOver } from '@brandwire/domain';
import type { SignalRecord, Store } from '@brandwire/store';
import type { ShiftableClock } from '@brandwire/upstream';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { RepeatedFailureLog } from '../common/logging/repeated-failure-log';
import { CLOCK, CONFIG, STORE } from '../app/tokens';
import type { Config } from '../config/config';
import { HeldConsents } from './held-consents';
import { SignalBus } from './signal-bus';
import { WEBHOOK_SENDER } from './signal-tokens';
import type { WebhookSender } from './webhook-sender';

const IDLE_POLL_MS = 250;
const BATCH = 2_000;
/** channels delivered at once: each has its rounds of its own, so one whose receiver hangs holds up no other */
const PARALLEL_CHANNELS = 16;
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
 * delivered by the instance holding its lease, in rounds of its own: channels are delivered in parallel (up to
 * PARALLEL_CHANNELS at once), so a receiver that hangs delays only its own channel. Within a round customers are
 * delivered in parallel, each one's signals one after the other; a failed signal holds back that customer's later
 * ones until its retry succeeds, and so does a consent result held in memory for its turn (HeldConsents).
 */
@Injectable()
export class DeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly owner = randomUUID();
  private readonly logger = new Logger('DeliveryWorker');
  private readonly pollFailures = new RepeatedFailureLog(this.logger, 'looking for signals to deliver');
  private running = false;
  /** channels written to since their round began (or while one could not begin): their next round starts at once */
  private readonly written = new Set<string>();
  private readonly pausedUntil = new Map<string, number>();
  /** until when this instance holds each channel's lease, as last written */
  private readonly leaseUntil = new Map<string, number>();
  /** the round delivering each channel now: told to stop when the channel's webhook changes */
  private readonly rounds = new Map<string, { lost: boolean }>();
  /** the channels whose round runs now, and when each channel's last round began (the longest waiting go first) */
  private readonly active = new Map<string, Promise<void>>();
  private readonly lastStartMs = new Map<string, number>();
  /** set when a channel waited for a free place: a round that ends wakes the loop to start it */
  private waiting = false;
  /** channels found without a webhook: a signal written to one starts no round (the poll still looks at their pending signals) */
  private readonly noWebhook = new Set<string>();
  /** the URL each channel's webhook was last refused for by the URL policy (said once in the log, not every round) */
  private readonly refusedUrls = new Map<string, string>();
  /**
   * channels whose last round with attempts delivered something: their endpoint answers. A round that delivers to a
   * channel not in it (its endpoint failed everything, or this instance has not delivered it yet) makes what waits
   * for a retry due at once; a round of one in it does not, so a signal the endpoint refuses while it takes the others
   * keeps its back-off.
   */
  private readonly answering = new Set<string>();
  private wake: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(WEBHOOK_SENDER) private readonly sender: WebhookSender,
    private readonly bus: SignalBus,
    private readonly consents: HeldConsents,
  ) {}

  onApplicationBootstrap(): void {
    this.running = true;
    this.unsubscribe.push(
      this.bus.onWritten((channelKey) => {
        if (this.noWebhook.has(channelKey)) return;
        this.written.add(channelKey);
        this.startRound(channelKey);
      }),
      // a customer's signals held back behind a consent result go on at once when it is released
      this.consents.onReleased((channelKey) => {
        this.pausedUntil.delete(channelKey);
        this.written.add(channelKey);
        this.startRound(channelKey);
      }),
    );
    this.loop = this.run();
  }

  async onApplicationShutdown(): Promise<void> {
    this.running = false;
    for (const unsubscribe of this.unsubscribe.splice(0)) unsubscribe();
    this.wake?.();
    await this.loop;
    this.sender.close();
  }

  private async run(): Promise<void> {
    while (this.running) {
      try {
        await this.tick();
        this.pollFailures.succeeded();
      } catch (error) {
        this.pollFailures.failed(error);
      }
      if (!this.running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, IDLE_POLL_MS);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
    // the rounds under way stop before their next attempt (an attempt already sent ends by its timeout)
    await Promise.allSettled([...this.active.values()]);
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
    // a new endpoint is not known to answer: its first delivery makes the backlog due
    this.answering.delete(channelKey);
    if (url !== null) this.noWebhook.delete(channelKey);
    // what waited for delivery to a removed webhook is not sent anywhere (nor to one set later); it stays listed for catch-up
    if (url === null) await this.store.signals.stopPendingWithoutWebhook(channelKey);
  }

  /**
   * Starts a round for every channel with pending signals that has none under way and is not paused, the
   * channels that waited longest first, up to PARALLEL_CHANNELS at once. Does not wait for the rounds. True if
   * any was started.
   */
  async tick(): Promise<boolean> {
    const now = Date.now();
    const due = (await this.store.signals.channelsWithPending())
      .filter((channelKey) => !this.active.has(channelKey) && (this.pausedUntil.get(channelKey) ?? 0) <= now)
      .sort((a, b) => (this.lastStartMs.get(a) ?? 0) - (this.lastStartMs.get(b) ?? 0));
    let started = false;
    for (const channelKey of due) started = this.startRound(channelKey) || started;
    return started;
  }

  /** Starts a round of the channel unless one is under way, it is paused, or every place is taken. True if started. */
  private startRound(channelKey: string): boolean {
    if (!this.running || this.active.has(channelKey) || (this.pausedUntil.get(channelKey) ?? 0) > Date.now()) return false;
    if (this.active.size >= PARALLEL_CHANNELS) {
      this.waiting = true;
      return false;
    }
    this.written.delete(channelKey);
    this.lastStartMs.set(channelKey, Date.now());
    const round = this.deliverRound(channelKey).then(
      (again) => this.roundEnded(channelKey, again),
      (error: unknown) => {
        this.logger.error(`delivery round of ${channelKey} failed: ${error instanceof Error ? error.message : String(error)}`);
        this.roundEnded(channelKey, false);
      },
    );
    this.active.set(channelKey, round);
    return true;
  }

  /** A channel's round ended: the next one starts at once when it delivered or the channel was written to meanwhile. */
  private roundEnded(channelKey: string, again: boolean): void {
    this.active.delete(channelKey);
    if (!this.running) return;
    if (this.waiting) {
      // another channel waits for this place: the loop gives it to the one waiting longest (maybe this one)
      this.waiting = false;
      this.wake?.();
      return;
    }
    if (again || this.written.has(channelKey)) this.startRound(channelKey);
  }

  /** One round of a channel whose lease this instance holds or can take. True if it delivered anything. */
  private async deliverRound(channelKey: string): Promise<boolean> {
    const now = this.clock.now();
    if (!(await this.claim(channelKey))) {
      // another instance delivers it: looked at again with the next poll, not at every signal written
      this.pausedUntil.set(channelKey, Date.now() + IDLE_POLL_MS);
      this.answering.delete(channelKey);
      return false;
    }
    const settings = await this.store.settings.get(channelKey);
    if (!settings.webhookUrl) {
      this.noWebhook.add(channelKey);
      return false;
    }
    this.noWebhook.delete(channelKey);
    const lease = this.holdLease(channelKey, settings.webhookUrl);
    this.rounds.set(channelKey, lease);
    try {
      const round = await this.deliverChannel(channelKey, settings.webhookUrl, settings.webhookSecret, now, lease);
      this.afterRound(channelKey, round, now);
      return round.delivered > 0;
    } finally {
      lease.stop();
      this.rounds.delete(channelKey);
    }
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
    // nothing waiting out a back-off (all delivered, or what is left waits behind a consent result held for its
    // turn, whose release starts a round): a signal written next starts a round at once, so the channel is not paused
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
    const round: Round = { delivered: [], failed: [], failuresInARow: 0, heldBack: new Set() };
    const queue = [...chains.values()];
    const workers = Array.from({ length: Math.min(PARALLEL_CUSTOMERS, queue.length) }, async () => {
      for (let chain = queue.shift(); chain && round.failuresInARow < OPEN_CIRCUIT_AFTER; chain = queue.shift()) {
        await this.deliverChain(chain, url, secret, now, lease, round);
      }
    });
    await Promise.all(workers);
    await this.store.signals.markDelivered(round.delivered);
    if (round.delivered.length > 0) {
      // The endpoint answers again after failing everything: whatever waits for a retry is due now, so a receiver
      // that is back gets it all. Not while it answered all along (a signal it keeps refusing while it takes the
      // others waits out its back-off), and before this round's failures are written: they keep theirs.
      if (!this.answering.has(channelKey)) await this.store.signals.expedite(channelKey, now);
      this.answering.add(channelKey);
    } else if (round.failed.length > 0) {
      this.answering.delete(channelKey);
    }
    await this.store.signals.markFailed(round.failed);
    const failed = round.failed.find((f) => !f.dead);
    const refused = round.failed.find((f) => f.urlRefused !== undefined);
    if (refused) {
      // the same refusal every round: said once per channel and URL (the url is not logged: it often holds a secret)
      if (this.refusedUrls.get(channelKey) !== url) {
        this.refusedUrls.set(channelKey, url);
        this.logger.warn(
          `webhook of ${channelKey}: its URL is not allowed now (${refused.urlRefused ?? ''}); nothing is sent to it, and its signals wait on their retry schedule (given up after 72 hours) until an Admin sets an allowed URL`,
        );
      }
    } else if (failed) {
      this.refusedUrls.delete(channelKey);
      // the url is not logged: receivers often carry their secret in it
      this.logger.warn(`webhook of ${channelKey}: delivery failed (${failed.error}); it is tried again ${retryTime(failed.nextAttemptMs, this.clock.now(), Date.now())}`);
    }
    return { delivered: round.delivered.length, nextDueMs: nextDue(chains.values(), round) };
  }

  /**
   * Delivers one customer's signals in order, stopping at the first one not due or failing. Outcomes are
   * collected and written together (a crash before that only repeats deliveries, under the same webhook-id).
   */
  private async deliverChain(chain: readonly SignalRecord[], url: string, secret: string, now: number, lease: { lost: boolean }, round: Round): Promise<void> {
    for (const signal of chain) {
      if (!this.running || lease.lost || signal.nextAttemptMs > now || round.failuresInARow >= OPEN_CIRCUIT_AFTER) break;
      // a consent result of an earlier seq waits in memory for its turn: the customer's later signals wait behind it
      const held = this.consents.firstHeld(signal.channelKey, signal.userKey);
      if (held !== undefined && held < signal.seq) {
        round.heldBack.add(signal);
        break;
      }
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
      round.failed.push({ key: signal, nextAttemptMs: failedAt + retryDelayMs(attempts, Math.random()), error: attempt.error ?? 'failed', dead, urlRefused: attempt.urlRefused });
      if (dead) this.logger.warn(`gave up delivering ${webhookId(signal)} after ${attempts} attempts: ${attempt.error ?? ''}`);
      if (!dead) break;
    }
  }
}

/**
 * When a retry is due, told in wall-clock time: the service's clock is the sandbox's, which may have been moved
 * (`nextAttemptMs` and `clockNowMs` are on it), while a log line is read against the time of the machine.
 */
export function retryTime(nextAttemptMs: number, clockNowMs: number, wallNowMs: number): string {
  const inMs = Math.max(0, nextAttemptMs - clockNowMs);
  return `from ${new Date(wallNowMs + inMs).toISOString()} (in ${(inMs / 1000).toFixed(1)} s)`;
}

/** When the channel's next signal is due (clock ms): the earliest head of a customer's chain still waiting, or a retry just scheduled. */
function nextDue(chains: Iterable<readonly SignalRecord[]>, round: Round): number | undefined {
  let due: number | undefined;
  const failed = new Set(round.failed.filter((f) => !f.dead).map((f) => f.key));
  const delivered = new Set(round.delivered);
  for (const chain of chains) {
    const head = chain.find((signal) => !delivered.has(signal));
    if (head === undefined || failed.has(head) || round.heldBack.has(head)) continue;
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
  /** `urlRefused`: the URL policy refused the URL itself, nothing was sent */
  failed: Array<{ key: SignalRecord; nextAttemptMs: number; error: string; dead: boolean; urlRefused: string | undefined }>;
  /** failures since the last success: past OPEN_CIRCUIT_AFTER the round stops knocking on a dead endpoint */
  failuresInARow: number;
  /** customers' next signals held back behind a consent result waiting in memory for its turn */
  heldBack: Set<SignalRecord>;
}
