import type { Store } from '@brandwire/store';
import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { STORE } from '../app/tokens';
import { Public } from '../common/auth/route-access';
import { fail } from '../common/errors/envelope';
import { STORAGE_UNAVAILABLE_MESSAGE } from '../common/errors/to-error-reply';
import { ApiErrors } from '../docs/api-errors';
import { HealthResponseDto } from './dto/health.dto';
import { StorageCheck } from './storage-check';

@ApiTags('health')
@Controller('healthz')
export class HealthController {
  private readonly storage: StorageCheck;

  constructor(@Inject(STORE) private readonly store: Store) {
    this.storage = new StorageCheck(() => store.directory.ping());
  }

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness, storage dialect, and whether the database answers (asked at most once a second)' })
  @ApiOkResponse({ type: HealthResponseDto })
  @ApiErrors({ STORAGE_UNAVAILABLE: 'the database did not answer the latest check' })
  async health(): Promise<HealthResponseDto> {
    if (!(await this.storage.reachable())) throw fail('STORAGE_UNAVAILABLE', STORAGE_UNAVAILABLE_MESSAGE);
    return { ok: true, storage: this.store.dialect };
  }
}
