import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { UpstreamCallback } from '../common/auth/route-access';
import { asBody } from './callback-body';
import { type CallbackAck, CallbacksService } from './callbacks.service';

/** Where the messenger reports customer messages, new consultations and ended sessions (partner key required). */
@ApiExcludeController()
@Controller('upstream')
@UpstreamCallback()
export class CallbacksController {
  constructor(private readonly callbacks: CallbacksService) {}

  @Post('message')
  @HttpCode(200)
  message(@Body() body: unknown): Promise<CallbackAck> {
    return this.callbacks.message(asBody(body));
  }

  @Post('reference')
  @HttpCode(200)
  reference(@Body() body: unknown): Promise<CallbackAck> {
    return this.callbacks.reference(asBody(body));
  }

  @Post('deleted')
  @HttpCode(200)
  deleted(@Body() body: unknown): Promise<CallbackAck> {
    return this.callbacks.deleted(asBody(body));
  }

  /** The customer's consent: relayed to the client, never stored (not even in the journal) and never logged. */
  @Post('personal_info')
  @HttpCode(200)
  personalInfo(@Body() body: unknown): Promise<{ ok: true }> {
    return this.callbacks.personalInfo(asBody(body));
  }

  @Post('expired_session')
  @HttpCode(200)
  expiredSession(@Body() body: unknown): Promise<CallbackAck> {
    return this.callbacks.sessionOver(asBody(body));
  }
}
