import { createHash } from 'node:crypto';
import type { Store } from '@brandwire/store';
import { type CallHandler, type ExecutionContext, Inject, Injectable, type NestInterceptor, UseInterceptors, applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { Response } from 'express';
import { type Observable, catchError, from, mergeMap, of } from 'rxjs';
import { STORE } from '../../app/tokens';
import type { AuthenticatedRequest } from '../auth/principal';
import { fail } from '../errors/envelope';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const RETENTION_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;

/** JSON with object keys sorted, so the same body always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * `Idempotency-Key` on sends: a retry with the same key and body gets the first answer (same serial) without a
 * second delivery or count; the same key with another body gets 409 `IDEMPOTENCY_CONFLICT`. Keys are per API key
 * and kept 24 hours. A request that fails before the messenger accepted it frees its key for the retry.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private lastSweep = 0;

  constructor(@Inject(STORE) private readonly store: Store) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthenticatedRequest>();
    const response = http.getResponse<Response>();
    const idemKey = request.header('idempotency-key');
    const principal = request.principal;
    if (idemKey === undefined || !principal) return next.handle();
    if (!KEY_PATTERN.test(idemKey)) throw fail('BAD_REQUEST', 'Idempotency-Key must be 1 to 255 visible ASCII characters');

    // Multipart sends are identified by their fields and their files' names and sizes.
    const files = (Array.isArray(request.files) ? request.files : []).map((f) => [f.fieldname, f.originalname, f.size]);
    const hash = createHash('sha256').update(`${request.method} ${request.path}\n${canonical(request.body)}\n${canonical(files)}`).digest('hex');
    const now = Date.now();
    return from(this.claim(principal.keyId, idemKey, hash, now)).pipe(
      mergeMap((claim) => {
        switch (claim.kind) {
          case 'replay':
            response.status(claim.status).setHeader('Idempotent-Replayed', 'true');
            return of(claim.body);
          case 'conflict':
            throw fail('IDEMPOTENCY_CONFLICT', 'this Idempotency-Key was already used with a different request');
          case 'in_progress':
            throw fail('IDEMPOTENCY_CONFLICT', 'a request with this Idempotency-Key is still being processed');
          case 'new':
            return next.handle().pipe(
              mergeMap(async (body: unknown) => {
                await this.store.idempotency.complete(principal.keyId, idemKey, response.statusCode, body);
                return body;
              }),
              catchError(async (error: unknown) => {
                await this.store.idempotency.release(principal.keyId, idemKey);
                throw error;
              }),
            );
          default: {
            const unreachable: never = claim;
            throw new Error(`unknown claim ${JSON.stringify(unreachable)}`);
          }
        }
      }),
    );
  }

  private async claim(keyId: string, idemKey: string, hash: string, now: number) {
    if (now - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = now;
      await this.store.idempotency.forgetOlderThan(now - RETENTION_MS);
    }
    return this.store.idempotency.claim(keyId, idemKey, hash, now);
  }
}

/** Marks a send route as taking an `Idempotency-Key` header. */
export function Idempotent(): MethodDecorator {
  return applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({ name: 'Idempotency-Key', required: false, description: 'retries with the same key and body return the first answer; another body gives 409 IDEMPOTENCY_CONFLICT' }),
  );
}
