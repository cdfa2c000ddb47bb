import { CONSENT_BUBBLE_TEXT } from '@brandwire/domain';
import type { MessengerPort } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { MESSENGER } from '../../app/tokens';
import { BrandAccessService } from '../../common/auth/brand-access.service';
import type { Principal } from '../../common/auth/principal';
import { fail } from '../../common/errors/envelope';
import type { SendResponseDto } from '../send/dto/send-response.dto';
import { SendService } from '../send/send.service';
import type { ConsentRequestDto } from './dto/consent.dto';

/**
 * Sends the fixed personal-info consent bubble (Kakao-type channels, once per consultation, both checked by
 * the send; billed like a send; not deletable). The customer's answer arrives later as the messenger's consent callback.
 */
@Injectable()
export class ConsentService {
  constructor(
    private readonly access: BrandAccessService,
    private readonly sends: SendService,
    @Inject(MESSENGER) private readonly messenger: MessengerPort,
  ) {}

  async request(principal: Principal, dto: ConsentRequestDto): Promise<SendResponseDto> {
    const userKey = dto.userKey ?? '';
    if (userKey.trim() === '') throw fail('EMPTY', 'userKey is empty');
    const channel = await this.access.channelFor(principal, dto.brandKey);
    return this.sends.deliver(channel, userKey, { op: 'consent_request', kind: 'consent', text: CONSENT_BUBBLE_TEXT, bubbleText: null }, (serialNumber) =>
      this.messenger.requestConsent({ senderKey: channel.senderKey, userKey, serialNumber }),
    );
  }
}
