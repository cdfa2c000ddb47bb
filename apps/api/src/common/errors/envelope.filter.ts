import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { errorReply } from './envelope';
import { toErrorReply } from './to-error-reply';

/** The one place where failures become the `{ ok:false, code, message }` envelope. */
@Catch()
export class EnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('EnvelopeFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    let reply = toErrorReply(error);
    if (!reply) {
      this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      reply = errorReply('INTERNAL', 'internal error');
    }
    if (response.headersSent) return;
    response.status(reply.status).json(reply.body);
  }
}
