import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { errorReply } from './envelope';
import { toErrorReply } from './to-error-reply';

/** What the log says besides the answer's message when the failure said something else (the client is not told). */
function causeOf(error: unknown, answered: string): string {
  const said = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : undefined;
  return typeof said !== 'string' || said === answered ? '' : ` (${said})`;
}

/** The one place where failures become the `{ ok:false, code, message }` envelope. */
@Catch()
export class EnvelopeFilter implements ExceptionFilter {
  private readonly logger = new Logger('EnvelopeFilter');

  /** @param allowedMethods the methods a path is served with, to answer a known path asked with another one */
  constructor(private readonly allowedMethods: (path: string) => string[] = () => []) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const response = http.getResponse<Response>();
    const request = http.getRequest<Request>();
    let reply = toErrorReply(error);
    if (!reply) {
      this.logger.error(`${request.method} ${request.path}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      reply = errorReply('INTERNAL', 'internal error');
    } else if (reply.status >= 500) {
      this.logger.error(`${request.method} ${request.path} answered ${reply.status} ${reply.body.code}: ${reply.body.message}${causeOf(error, reply.body.message)}`);
    } else {
      this.logger.debug(`${request.method} ${request.path} answered ${reply.status} ${reply.body.code}`);
    }
    if (response.headersSent) return;
    if (reply.body.code === 'NO_ROUTE') {
      const allowed = this.allowedMethods(request.path);
      if (allowed.length > 0) {
        response.setHeader('Allow', allowed.join(', '));
        reply = errorReply('METHOD_NOT_ALLOWED', `${request.path} does not take ${request.method}; it takes ${allowed.join(', ')}`);
      }
    }
    response.status(reply.status).json(reply.body);
  }
}
