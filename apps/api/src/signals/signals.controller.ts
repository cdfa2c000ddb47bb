import { parseSignalCursor } from '@brandwire/domain';
import type { Store } from '@brandwire/store';
import { type BeforeApplicationShutdown, Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { STORE } from '../app/tokens';
import { ApiKeysService } from '../common/auth/api-keys.service';
import { bearerToken } from '../common/auth/bearer-token';
import { BrandAccessService } from '../common/auth/brand-access.service';
import { KeyRevocations } from '../keys/key-revocations';
import { CurrentPrincipal, type Principal } from '../common/auth/principal';
import { RequiresScope } from '../common/auth/route-access';
import { ApiErrors, QUERY_ERRORS } from '../docs/api-errors';
import { fail } from '../common/errors/envelope';
import { SignalsQueryDto, SignalsResponseDto, StreamQueryDto } from './dto/signals.dto';
import { SignalBus } from './signal-bus';
import { streamSignals } from './signal-stream';
import { FROM_START, SignalsService } from './signals.service';

/** How often an open stream checks that its key still stands (another instance may have revoked it). */
const KEY_RECHECK_MS = 5_000;

@ApiTags('signals')
@Controller('api/agent/signals')
@RequiresScope('BrandRead')
export class SignalsController implements BeforeApplicationShutdown {
  /** open streams, ended when the service stops (an open stream would keep it from closing) */
  private readonly streams = new Set<() => void>();

  constructor(
    private readonly signals: SignalsService,
    private readonly access: BrandAccessService,
    private readonly bus: SignalBus,
    private readonly revocations: KeyRevocations,
    private readonly apiKeys: ApiKeysService,
    @Inject(STORE) private readonly store: Store,
  ) {}

  @Get()
  @ApiOperation({ summary: 'The signals after a seq, for catching up (same payloads as the webhook)' })
  @ApiOkResponse({ type: SignalsResponseDto })
  @ApiErrors(QUERY_ERRORS, { BAD_REQUEST: "`after` is past the channel's last seq (not a cursor this service gave)" })
  after(@CurrentPrincipal() principal: Principal, @Query() query: SignalsQueryDto): Promise<SignalsResponseDto> {
    return this.signals.after(principal, query);
  }

  @Get('stream')
  @ApiOperation({ summary: 'A live Server-Sent Events stream of the signals; resumes after Last-Event-ID' })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description:
      'Server-Sent Events: `event` is the signal kind, `data` the signal (SignalDto) as JSON, `id` its "<seq>.<part>" (personal_info results are sent live only, without an id); a stream that does not start at the channel\'s start begins with an `id` alone (no event) naming where it starts; errors before the stream opens are JSON',
    content: { 'text/event-stream': { schema: { type: 'string', example: 'id: 42.0\nevent: message\ndata: {"kind":"message","seq":42,...}\n\n' } } },
  })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'the id of the last event received ("<seq>.<part>")' })
  @ApiErrors(QUERY_ERRORS, { BAD_REQUEST: "Last-Event-ID is not an event id, or it (or `after`) is past the channel's last seq" })
  async stream(@CurrentPrincipal() principal: Principal, @Query() query: StreamQueryDto, @Req() req: Request, @Res() res: Response): Promise<void> {
    const channel = await this.access.channelFor(principal, query.brand, 'brand');
    // an empty Last-Event-ID is none (what a client sends before its first event)
    const resume = req.header('last-event-id') || query.after;
    const cursor = resume === 'now' ? await this.signals.endCursor(channel.key) : resume === undefined ? FROM_START : parseSignalCursor(resume);
    if (!cursor) throw fail('BAD_REQUEST', 'Last-Event-ID must be an event id such as 12.0');
    await this.signals.refuseCursorPastTheEnd(channel.key, cursor.seq, 'Last-Event-ID');
    const close = await streamSignals(this.store, this.bus, channel.key, cursor, req, res);
    // a client that left before the stream opened: its 'close' has fired already, so nothing is kept for it
    if (!close) return;
    this.streams.add(close);
    // a revoked key reads no more: its stream ends (at once when revoked here, else at the next check of the key),
    // and the client's reconnection is refused
    const offRevoked = this.revocations.onRevoked(principal.keyId, close);
    const token = bearerToken(req.header('authorization') ?? '') ?? '';
    const recheck = setInterval(() => {
      void this.apiKeys.authenticate(token).then((still) => still === undefined && close(), () => undefined);
    }, KEY_RECHECK_MS);
    recheck.unref();
    req.on('close', () => {
      this.streams.delete(close);
      offRevoked();
      clearInterval(recheck);
    });
    // revoked while the stream was being opened, before its listener was there
    if (this.apiKeys.isRevokedHere(principal.keyId)) close();
  }

  beforeApplicationShutdown(): void {
    for (const close of this.streams) close();
    this.streams.clear();
  }
}
