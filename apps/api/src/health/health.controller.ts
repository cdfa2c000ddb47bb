import type { Store } from '@brandwire/store';
import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { STORE } from '../app/tokens';
import { Public } from '../common/auth/route-access';

@ApiTags('health')
@Controller('healthz')
export class HealthController {
  constructor(@Inject(STORE) private readonly store: Store) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness and storage dialect' })
  @ApiOkResponse({ schema: { example: { ok: true, storage: 'sqlite' } } })
  health(): { ok: true; storage: string } {
    return { ok: true, storage: this.store.dialect };
  }
}
