import { consentRequestCheck } from '@brandwire/domain';
import type { MessengerPort } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { MESSENGER } from '../../app/tokens';
import { BrandAccessService } from '../../common/auth/brand-access.service';
import type { Principal } from '../../common/auth/principal';
import { fail } from '../../common/errors/envelope';
import type { SendResponseDto } from '../send/dto/send-response.dto';
import { SendService } from '../send/send.service';
import type { ConsentRequestDto } from './dto/consent.dto';

export const CONSENT_BUBBLE_TEXT = 'Personal information consent requested';

/**
 * Sends the fixed personal-info consent bubble (Kakao-type channels, once per consultation; billed like a
 * send; not deletable). The customer's answer arrives later as the messenger's consent callback.
 */
@Injectable()
export class ConsentService {
  constructor(
    private readonly access: BrandAccessService,
    private readonly sends: SendService,
    @Inject(MESSENGER) private readonly messenger: MessengerPort,
  ) {}

  async request(principal: Principal, dto: ConsentRequestDto): Promise<SendResponseDto> {
    if (dto.userKey.trim() === '') throw fail('EMPTY', 'userKey is empty');
    const channel = await this.access.channelFor(principal, dto.brandKey);
    // Whether this consultation already had its request is the messenger's to say (-520); the channel type is ours.
    const check = consentRequestCheck('not_requested', channel.type);
    if (!check.ok) throw fail('UNSUPPORTED_CHANNEL', `personal-info consent requests work only on Kakao-type channels; ${channel.key} is ${channel.type}`);
    return this.sends.deliver(channel, dto.userKey, { op: 'consent_request', kind: 'consent', text: CONSENT_BUBBLE_TEXT, bubbleText: null }, (serialNumber) =>
      this.messenger.requestConsent({ senderKey: channel.senderKey, userKey: dto.userKey, serialNumber }),
    );
  }
}
