import { AsyncLocalStorage } from 'node:async_hooks';
import { type SerialGenerator, UpstreamCode } from '@brandwire/domain';
import type { SentContent, Store, UncertainAttempt } from '@brandwire/store';
import type { UpstreamResult } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { SERIALS, STORE } from '../../app/tokens';

/**
 * The serials one attempt of a keyed send hands out: first those of an earlier attempt whose outcome is unknown.
 * A new one is noted (`note`) before the messenger is given it, so a retry after a crash knows it too.
 */
export class SendAttempt {
  private readonly handedOut: string[] = [];
  private readonly contents: Record<string, SentContent> = {};
  private sessionId: string | null;
  /** the messenger answered a call of this attempt: a bubble may have reached the customer */
  messengerAnswered = false;

  constructor(
    readonly earlier: UncertainAttempt | undefined,
    private readonly note: (attempt: UncertainAttempt) => Promise<void>,
  ) {
    this.sessionId = earlier?.sessionId ?? null;
  }

  /** Notes what the uploaded bubble `serial` is sent with, before the messenger is given it. */
  async noteContent(serial: string, content: SentContent): Promise<void> {
    this.contents[serial] = content;
    await this.note(this.uncertain());
  }

  /** What an earlier attempt sent the uploaded bubble `serial` with, if it got that far. */
  contentBefore(serial: string): SentContent | undefined {
    return this.earlier?.contents?.[serial];
  }

  async take(fresh: () => string): Promise<string> {
    const again = this.earlier?.serials[this.handedOut.length];
    this.handedOut.push(again ?? fresh());
    if (again === undefined) await this.note(this.uncertain());
    return this.handedOut[this.handedOut.length - 1] as string;
  }

  /** Whether `serial` was handed out by an earlier attempt (it may have been delivered, and journaled). */
  handedOutBefore(serial: string): boolean {
    return this.earlier?.serials.includes(serial) ?? false;
  }

  /** The customer's session the attempt sends in; an earlier attempt's stays, as it may have delivered in it. */
  noteSession(sessionId: string | undefined): void {
    if (this.sessionId === null && sessionId !== undefined && sessionId !== '') this.sessionId = sessionId;
  }

  /** What a retry must send again: every serial this attempt or an earlier one may have delivered, and where. */
  uncertain(): UncertainAttempt {
    const earlier = this.earlier?.serials ?? [];
    const serials = earlier.length >= this.handedOut.length ? [...earlier] : [...this.handedOut];
    const contents = { ...this.earlier?.contents, ...this.contents };
    return { serials, sessionId: this.sessionId, ...(Object.keys(contents).length > 0 && { contents }) };
  }
}

/** A bubble the messenger had delivered in an earlier attempt: in the customer's session of then, when known. */
export interface EarlierDelivery {
  sessionId: string | null;
}

/**
 * The serials of sent bubbles. A retry of a keyed send (`Idempotency-Key`) whose earlier attempt got no answer from
 * the messenger sends the same serials again, the messenger's natural idempotency key: its `-504` for a serial
 * already used tells that the earlier attempt was delivered, so nothing reaches the customer twice. The attempt is
 * carried in async context, so the sends deep in a handler need no parameter for it.
 */
@Injectable()
export class SendSerials {
  private readonly attempts = new AsyncLocalStorage<SendAttempt>();

  constructor(
    @Inject(SERIALS) private readonly generator: SerialGenerator,
    @Inject(STORE) private readonly store: Store,
  ) {}

  /** The serial of the next bubble; in a keyed send, noted with its key before it is handed out. */
  async next(): Promise<string> {
    const attempt = this.attempts.getStore();
    return attempt ? attempt.take(() => this.generator.next()) : this.generator.next();
  }

  /**
   * Whether `serial` was handed out by an earlier attempt of this keyed send and is in the journal: that attempt
   * was delivered and journaled, then cut off before its answer was kept.
   */
  async journaledBefore(channelKey: string, serial: string): Promise<boolean> {
    if (!this.attempts.getStore()?.handedOutBefore(serial)) return false;
    return (await this.store.journal.findBubble(channelKey, serial)) !== undefined;
  }

  /**
   * What an earlier attempt of this keyed send sent the uploaded bubble `serial` with: the retry sends it again as it
   * was (the same upload and caption), as the messenger may have delivered it.
   */
  contentBefore(serial: string): SentContent | undefined {
    return this.attempts.getStore()?.contentBefore(serial);
  }

  /** Notes, in a keyed send, what the uploaded bubble `serial` is sent with, before the messenger is given it. */
  async noteContent(serial: string, content: SentContent): Promise<void> {
    await this.attempts.getStore()?.noteContent(serial, content);
  }

  /** Whether an earlier attempt of this keyed send put `caption` on one of its images. */
  captionSentBefore(caption: string): boolean {
    const contents = this.attempts.getStore()?.earlier?.contents ?? {};
    return Object.values(contents).some((content) => content.caption === caption);
  }

  /** The customer's session an earlier attempt of this keyed send went to, when known. */
  earlierSession(): string | null {
    return this.attempts.getStore()?.earlier?.sessionId ?? null;
  }

  /** The customer's session a keyed send goes to (kept with its serials should its outcome stay unknown). */
  noteSession(sessionId: string | undefined): void {
    this.attempts.getStore()?.noteSession(sessionId);
  }

  /**
   * Called with each answer of the messenger to a bubble: whether it refused `serial` as used and an earlier attempt
   * of this send had sent it. Then that attempt was delivered, and this tells where.
   */
  earlierDelivery(serial: string, result: UpstreamResult): EarlierDelivery | undefined {
    const attempt = this.attempts.getStore();
    if (attempt) attempt.messengerAnswered = true;
    if (result.code !== UpstreamCode.DuplicateSerialNumber) return undefined;
    return attempt?.earlier && attempt.handedOutBefore(serial) ? { sessionId: attempt.earlier.sessionId } : undefined;
  }

  /** The messenger's answer to a bubble sent with `serial`, read as a success when an earlier attempt delivered it. */
  outcome(serial: string, result: UpstreamResult): UpstreamResult {
    return this.earlierDelivery(serial, result) ? { code: UpstreamCode.Ok, message: null } : result;
  }

  within<T>(attempt: SendAttempt, run: () => Promise<T>): Promise<T> {
    return this.attempts.run(attempt, run);
  }
}
