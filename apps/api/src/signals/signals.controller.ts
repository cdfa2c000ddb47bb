import { parseSignalCursor } from '@brandwire/domain';
import type { Store } from '@brandwire/store';
import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { STORE } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { fail } from '../common/errors/envelope';
import { SignalsQueryDto, SignalsResponseDto, StreamQueryDto } from './dto/signals.dto';
import { SignalBus } from './signal-bus';
import { streamSignals } from './signal-stream';
import { FROM_START, SignalsService } from './signals.service';

@ApiTags('signals')
@Controller('api/agent/signals')
@RequiresScope('BrandRead')
export class SignalsController {
  constructor(
    private readonly signals: SignalsService,
    private readonly access: BrandAccessService,
    private readonly bus: SignalBus,
    @Inject(STORE) private readonly store: Store,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The signals after a seq, for catching up (same payloads as the webhook)' })
  @ApiOkResponse({ type: SignalsResponseDto })
  after(@CurrentPrincipal() principal: Principal, @Query() query: SignalsQueryDto): Promise<SignalsResponseDto> {
    return this.signals.after(principal, query);
  }

  @Get('stream')
  @ApiOperation({ summary: 'A live Server-Sent Events stream of the signals; resumes after Last-Event-ID' })
  @ApiProduces('text/event-stream')
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'the id of the last event received ("<seq>.<part>")' })
  async stream(@CurrentPrincipal() principal: Principal, @Query() query: StreamQueryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const channel = await this.access.channelFor(principal, query.brand, 'brand');
    const resume = req.header('last-event-id') ?? query.after;
    const cursor = resume === undefined ? FROM_START : parseSignalCursor(resume);
    if (!cursor) throw fail('BAD_REQUEST', 'Last-Event-ID must be an event id such as 12.0');
    streamSignals(this.store, this.bus, channel.key, cursor, req, res);
  }
}
