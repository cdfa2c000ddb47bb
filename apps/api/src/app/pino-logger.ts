import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';

/**
 * The service's structured log (pino, JSON lines on stdout). No per-request async context is kept: on Node 20
 * that costs more than the rest of a send. Request bodies are never logged; they may hold personal information.
 */
export function createLogger(level: string): Logger {
  return pino({ level, base: { pid: process.pid } });
}

/** Nest's logger interface over pino, with Nest's context as a field. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }

  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }

  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }

  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }

  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
