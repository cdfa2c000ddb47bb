import { isUpstreamSuccess } from '@brandwire/domain';
import type { ChannelRecord, Store } from '@brandwire/store';
import { type MessengerPort, type ShiftableClock, type UpstreamResult, UpstreamUnavailableError } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, MESSENGER, STORE } from '../../app/tokens';
import { BrandAccessService } from '../../common/auth/brand-access.service';
import type { Principal } from '../../common/auth/principal';
import { toErrorReply } from '../../common/errors/to-error-reply';
import { JournalWriter } from '../../journal/journal-writer.service';
import { type EndReason, sessionEnding } from '../../journal/session-ending';
import type { CustomerTargetDto } from '../send/dto/send-text.dto';
import { CustomerSendTurns } from '../send/customer-send-turns';
import { SendService } from '../send/send.service';
import type { EndDto, EndWithBotDto, GreetingResultDto, SessionActionResponseDto } from './dto/session-action.dto';

/**
 * Ends consultations (plainly or with a hand-off to the bot) and blocks or unblocks customers. Never billed.
 * An end or block takes its turn among the customer's sends (CustomerSendTurns): of several ends at once only the
 * first greets and ends, and no send is journaled on the wrong side of an end the customer saw before or after it.
 */
@Injectable()
export class SessionActionsService {
  constructor(
    private readonly access: BrandAccessService,
    private readonly sends: SendService,
    private readonly turns: CustomerSendTurns,
    private readonly journal: JournalWriter,
    @Inject(STORE) private readonly store: Store,
    @Inject(MESSENGER) private readonly messenger: MessengerPort,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
  ) {}

  async end(principal: Principal, dto: EndDto): Promise<SessionActionResponseDto> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    return this.inTurn(channel, dto.userKey, async () => {
      // the end happens whatever became of the greeting; the answer says both (null: no greeting, as left out)
      const greeting = dto.greeting == null ? undefined : await this.sendGreeting(channel, dto.userKey, dto.greeting);
      const ended = await this.endWith(channel, dto.userKey, 'agent_end', (ref) => this.messenger.end(ref));
      if (!greeting) return ended;
      return { ...ended, ...(greeting.ok ? { serial: greeting.serial } : {}), greeting };
    });
  }

  /** The greeting's outcome, also when it could not be sent at all (plan used up, for one): it never stops the end. */
  private async sendGreeting(channel: ChannelRecord, userKey: string, greeting: string): Promise<GreetingResultDto> {
    try {
      return await this.sends.deliverTextInTurn(channel, userKey, greeting);
    } catch (error) {
      const reply = toErrorReply(error);
      if (!reply) throw error;
      return reply.body;
    }
  }

  async endWithBot(principal: Principal, dto: EndWithBotDto): Promise<SessionActionResponseDto> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    return this.inTurn(channel, dto.userKey, () =>
      this.endWith(channel, dto.userKey, 'bot', (ref) => this.messenger.endWithBot({ ...ref, ...(dto.botEvent ? { botEvent: dto.botEvent } : {}) }), {
        botEvent: dto.botEvent ?? null,
      }),
    );
  }

  async block(principal: Principal, dto: CustomerTargetDto): Promise<SessionActionResponseDto> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    return this.inTurn(channel, dto.userKey, () => this.endWith(channel, dto.userKey, 'block', (ref) => this.messenger.block(ref)));
  }

  private inTurn<T>(channel: ChannelRecord, userKey: string, task: () => Promise<T>): Promise<T> {
    return this.turns.run(channel.key, userKey, task);
  }

  async unblock(principal: Principal, dto: CustomerTargetDto): Promise<SessionActionResponseDto> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    const result = await this.messenger.unblock({ senderKey: channel.senderKey, userKey: dto.userKey });
    return answer(result);
  }

  /**
   * Asks the messenger to end the consultation in progress and journals the end at once; the messenger's
   * later end callback finds it journaled and adds nothing.
   */
  private async endWith(
    channel: ChannelRecord,
    userKey: string,
    reason: EndReason,
    call: (ref: { senderKey: string; userKey: string }) => Promise<UpstreamResult>,
    meta: Record<string, unknown> = {},
  ): Promise<SessionActionResponseDto> {
    const room = await this.store.journal.getRoom(channel.key, userKey);
    const inProgress = room?.state === 'in_progress' ? room.sessionId : undefined;
    if (inProgress) await this.store.journal.markEndRequested(channel.key, userKey, inProgress);
    // an end the messenger refused, or never got, did not happen: its mark must not make a later end the agent's
    // (one whose answer was lost may have happened: its mark stays for the messenger's callback)
    const forget = async () => {
      if (inProgress) await this.store.journal.clearEndRequested(channel.key, userKey, inProgress);
    };
    let result: UpstreamResult;
    try {
      result = await call({ senderKey: channel.senderKey, userKey });
    } catch (error) {
      if (error instanceof UpstreamUnavailableError && error.neverArrived) await forget().catch(() => undefined);
      throw error;
    }
    if (!isUpstreamSuccess(result.code)) {
      await forget();
      return answer(result);
    }
    const sessionId = result.sessionId ?? inProgress ?? null;
    if (sessionId) {
      await this.journal.appendSessionEnd(channel.key, {
        userKey,
        sessionId,
        kind: 'ended',
        text: sessionEnding(reason, typeof meta['botEvent'] === 'string' ? meta['botEvent'] : null).text,
        timestampUnixMs: this.clock.now(),
        meta: { reason, ...meta },
      });
    }
    return { ...answer(result), sessionId };
  }
}

function answer(result: UpstreamResult): SessionActionResponseDto {
  return isUpstreamSuccess(result.code)
    ? { ok: true, code: '0', message: null }
    : { ok: false, code: result.code, message: result.message ?? 'the messenger rejected the call' };
}
