import { type ConsultationSchedule, isOpenAt, parseSchedule } from '@brandwire/domain';
import type { Store } from '@brandwire/store';
import type { ShiftableClock } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, CONFIG, SANDBOX, STORE } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import type { Principal } from '../common/auth/principal';
import { fail } from '../common/errors/envelope';
import type { Config } from '../config/config';
import type { SandboxLink } from '../sandbox/sandbox-link';
import type { ScheduleResponseDto, SetScheduleDto } from './dto/schedule.dto';
import { pushScheduleToSandbox } from './sandbox-schedule';
import { storedSchedule } from './stored-schedule';

/**
 * Consultation hours of a channel. The service keeps them; when the upstream is the sandbox messenger it gets
 * them too (the messenger then adds its out-of-hours notice). Never billed.
 */
@Injectable()
export class ScheduleSettingsService {
  constructor(
    private readonly access: BrandAccessService,
    @Inject(STORE) private readonly store: Store,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
    @Inject(SANDBOX) private readonly sandbox: SandboxLink | undefined,
  ) {}

  async get(principal: Principal, brand: string): Promise<ScheduleResponseDto> {
    const channel = await this.access.channelFor(principal, brand, 'brand');
    return this.answer(channel.key, await storedSchedule(this.store, channel.key, this.config.timeZone));
  }

  async set(principal: Principal, dto: SetScheduleDto): Promise<ScheduleResponseDto> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    const parsed = parseSchedule(dto.schedule, this.config.timeZone);
    if (!parsed.ok) throw fail('BAD_REQUEST', parsed.message);
    if (this.sandbox) await pushScheduleToSandbox(this.sandbox, channel.senderKey, parsed.schedule);
    await this.store.settings.setSchedule(channel.key, parsed.schedule);
    return this.answer(channel.key, parsed.schedule);
  }

  private answer(brand: string, schedule: ConsultationSchedule | null): ScheduleResponseDto {
    return { ok: true, brand, schedule, openNow: isOpenAt(schedule, this.clock.now()) };
  }
}
