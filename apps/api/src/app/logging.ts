import { type DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { Config } from '../config/config';

/**
 * Structured logs (pino). Requests are logged only when they fail; bodies are never logged (they may hold
 * personal information) and the credentials headers are redacted.
 */
@Module({})
export class LoggingModule {
  static forConfig(config: Config): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            level: config.logLevel,
            customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'silent'),
            redact: ['req.headers.authorization', 'req.headers["x-partner-key"]', 'req.headers.cookie'],
            serializers: {
              req: (req: { method: string; url: string }) => ({ method: req.method, url: req.url }),
              res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
            },
          },
        }),
      ],
    };
  }
}
