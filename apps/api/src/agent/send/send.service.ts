import { type SerialGenerator, isUpstreamSuccess } from '@brandwire/domain';
import type { ChannelRecord, Store } from '@brandwire/store';
import type { MessengerPort, ShiftableClock } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, MESSENGER, SERIALS, STORE } from '../../app/tokens';
import type { Principal } from '../../common/auth/principal';
import { BrandAccessService } from '../../common/auth/brand-access.service';
import { JournalWriter } from '../../journal/journal-writer.service';
import type { SendResponseDto } from './dto/send-response.dto';
import type { SendTextDto } from './dto/send-text.dto';

/** Sends to a customer through the messenger and journals each accepted bubble as an `agent` item. */
@Injectable()
export class SendService {
  constructor(
    private readonly access: BrandAccessService,
    private readonly journal: JournalWriter,
    @Inject(STORE) private readonly store: Store,
    @Inject(MESSENGER) private readonly messenger: MessengerPort,
    @Inject(SERIALS) private readonly serials: SerialGenerator,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
  ) {}

  async sendText(principal: Principal, dto: SendTextDto): Promise<SendResponseDto> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    return this.deliverText(channel, dto.userKey, dto.text);
  }

  /** One text bubble to a customer of a channel the caller was already allowed to use. */
  async deliverText(channel: ChannelRecord, userKey: string, text: string): Promise<SendResponseDto> {
    const serial = this.serials.next();
    const result = await this.messenger.writeText({ senderKey: channel.senderKey, userKey, serialNumber: serial, message: text });
    if (!isUpstreamSuccess(result.code)) return { ok: false, code: result.code, message: result.message ?? 'the messenger rejected the send', serial };
    const room = await this.store.journal.getRoom(channel.key, userKey);
    await this.journal.append(channel.key, [
      { userKey, sessionId: room?.sessionId ?? '', kind: 'agent', text, timestampUnixMs: this.clock.now(), serial },
    ]);
    return { ok: true, code: '0', message: null, serial };
  }
}
