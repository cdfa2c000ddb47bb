import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { Store } from '@brandwire/store';
import type { ShiftableClock } from '@brandwire/upstream';
import { type ExecutionContext, Inject, Injectable, createParamDecorator } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { httpStatusOf } from '@brandwire/domain';
import { UpstreamUnavailableError } from '@brandwire/upstream';
import type { Response } from 'express';
import { CLOCK, STORE } from '../../app/tokens';
import { SendNotJournaledError } from '../errors/send-not-journaled';
import type { AuthenticatedRequest } from '../auth/principal';
import { fail } from '../errors/envelope';
import { ClaimRenewals, OTHER_INSTANCE_CUT_OFF_MS } from './claim-renewals';
import { SendAttempt, SendSerials } from './send-serials';

const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
const RETENTION_MS = 24 * 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** Answers the database did not take, remembered at most (the oldest forgotten first). */
const MAX_UNKEPT_ANSWERS = 10_000;


/** A file of a multipart send, as the request's hash takes it: its part, name, size, and where its bytes are. */
interface SentFile {
  fieldname: string;
  originalname: string;
  size: number;
  path: string;
}

/**
 * A send made with an `Idempotency-Key`: whose key, which request (its method, path and body; its files, whose
 * bytes are hashed only when the key is used), and where to answer a replay.
 */
export interface IdempotentCall {
  keyId: string;
  idemKey: string;
  request: string;
  files: readonly SentFile[];
  response: Response;
}

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
 * The request's `Idempotency-Key` (undefined without one), read once the body and any files are parsed and the
 * body passed validation; 400 `BAD_REQUEST` for a malformed key. Multipart sends are identified by their fields
 * and their files' parts, names and contents.
 */
export const IdempotencyKey = createParamDecorator((_: unknown, ctx: ExecutionContext): IdempotentCall | undefined => {
  const http = ctx.switchToHttp();
  const request = http.getRequest<AuthenticatedRequest>();
  const idemKey = request.header('idempotency-key');
  if (idemKey === undefined || !request.principal) return undefined;
  if (!KEY_PATTERN.test(idemKey)) throw fail('BAD_REQUEST', 'Idempotency-Key must be 1 to 255 visible ASCII characters');
  const files = (Array.isArray(request.files) ? request.files : []).map(({ fieldname, originalname, size, path }) => ({ fieldname, originalname, size, path }));
  return { keyId: request.principal.keyId, idemKey, request: `${request.method} ${request.path}\n${canonical(request.body)}`, files, response: http.getResponse<Response>() };
});

/** sha256 of a file, read from disk a chunk at a time: an upload may be hundreds of megabytes. */
async function fileHash(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** What tells one request from another: its method, path and body, and its files' parts, names, sizes and bytes. */
async function requestHash(call: IdempotentCall): Promise<string> {
  const files: Array<[string, string, number, string]> = [];
  for (const file of call.files) files.push([file.fieldname, file.originalname, file.size, await fileHash(file.path)]);
  return createHash('sha256').update(`${call.request}\n${canonical(files)}`).digest('hex');
}

/**
 * `Idempotency-Key` on sends: a retry with the same key and body gets the first answer (same serial) without a
 * second delivery or count; the same key with another body gets 409 `IDEMPOTENCY_CONFLICT`. Keys are per API key
 * and kept 24 hours. A request that fails before the messenger was asked frees its key for the retry; one whose
 * messenger call got no answer keeps its serials, which the retry sends again (SendSerials), and so does one cut
 * off by a crash: its serials are noted before each messenger call, and the retry takes its claim over.
 *
 * A call the handler makes itself rather than a Nest interceptor: an interceptor on a route costs every request
 * an rxjs pipeline and two async resources, keyed or not.
 */
@Injectable()
export class IdempotencyService {
  private lastSweep = 0;
  /** this run of the service, as the holder of its claims */
  private readonly holderId = randomUUID();
  private readonly renewals: ClaimRenewals;
  /** answers of this run the database did not take, by API key and Idempotency-Key: replayed here all the same */
  private readonly unkept = new Map<string, { status: number; body: unknown }>();

  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
    private readonly serials: SendSerials,
  ) {
    this.renewals = new ClaimRenewals(store, () => clock.now());
  }

  /** Runs `handler` once per key and request; without a key, simply runs it. */
  async run<T>(call: IdempotentCall | undefined, handler: () => Promise<T>): Promise<T> {
    if (!call) return handler();
    // the service's clock, which the sandbox's clock moves: keys are forgotten after 24 hours of it
    const now = this.clock.now();
    const claim = await this.claim(call, now);
    switch (claim.kind) {
      case 'replay':
        call.response.status(claim.status).setHeader('Idempotent-Replayed', 'true');
        return claim.body as T;
      case 'conflict':
        throw fail('IDEMPOTENCY_CONFLICT', 'this Idempotency-Key was already used with a different request');
      case 'in_progress': {
        const unkept = this.unkept.get(unkeptKey(call));
        if (unkept) {
          call.response.status(unkept.status).setHeader('Idempotent-Replayed', 'true');
          return unkept.body as T;
        }
        throw fail('IDEMPOTENCY_CONFLICT', 'a request with this Idempotency-Key is still being processed; retry once it has answered');
      }
      case 'new':
      case 'resume':
        // a claim of this request now, whatever an earlier one under the key became
        this.unkept.delete(unkeptKey(call));
        break;
      default: {
        const unreachable: never = claim;
        throw new Error(`unknown claim ${JSON.stringify(unreachable)}`);
      }
    }
    const attempt = new SendAttempt(claim.kind === 'resume' ? claim.attempt : undefined, (handedOut) =>
      this.store.idempotency.noteAttempt(call.keyId, call.idemKey, now, handedOut),
    );
    const letGo = this.renewals.hold({ keyId: call.keyId, idemKey: call.idemKey, claimedMs: now });
    let body: T;
    try {
      body = await this.serials.within(attempt, handler);
    } catch (error) {
      const uncertain = attempt.uncertain();
      if (error instanceof SendNotJournaledError) {
        // the customer has the message: the key stays taken, and answers the send once it is recorded
        this.completeWhenJournaled(call, now, error, letGo);
        throw error;
      }
      letGo();
      if (uncertain.serials.length > 0 && (attempt.earlier !== undefined || attempt.messengerAnswered || mayHaveArrived(error))) {
        // a bubble may have reached the customer (this one, or one before it): the retry sends the same serials
        await this.store.idempotency.keepUncertain(call.keyId, call.idemKey, now, uncertain);
      } else {
        await this.store.idempotency.release(call.keyId, call.idemKey, now);
      }
      throw error;
    }
    try {
      await this.store.idempotency.complete(call.keyId, call.idemKey, now, call.response.statusCode, body);
    } catch (error) {
      // the send happened: answer it, and keep the key claimed so that a retry cannot send it twice
      this.keptUnstored(call, call.response.statusCode, body, error);
    } finally {
      letGo();
    }
    return body;
  }

  private completeWhenJournaled(call: IdempotentCall, now: number, error: SendNotJournaledError, letGo: () => void): void {
    const [status, answer] = error.answer === undefined ? [httpStatusOf(error.code), { ok: false, code: error.code, message: error.message }] : [200, error.answer];
    error.journaled
      .then(() => this.store.idempotency.complete(call.keyId, call.idemKey, now, status, answer))
      .catch((failure: unknown) => this.keptUnstored(call, status, answer, failure))
      .finally(letGo);
  }

  /**
   * An answer the database did not take: a retry reaching this run gets it all the same; one reaching another run
   * (after a restart, or another instance once the claim is no longer renewed) takes the claim over and finds the
   * send in the journal.
   */
  private keptUnstored(call: IdempotentCall, status: number, body: unknown, failure: unknown): void {
    process.emitWarning(`the answer of Idempotency-Key ${JSON.stringify(call.idemKey)} could not be kept: ${failure instanceof Error ? failure.message : String(failure)}`);
    if (this.unkept.size >= MAX_UNKEPT_ANSWERS) this.unkept.delete(this.unkept.keys().next().value as string);
    this.unkept.set(unkeptKey(call), { status, body });
  }

  private async claim(call: IdempotentCall, now: number) {
    if (Math.abs(now - this.lastSweep) > SWEEP_EVERY_MS) {
      this.lastSweep = now;
      await this.store.idempotency.forgetOlderThan(now - RETENTION_MS);
    }
    const othersCutOffBeforeMs = this.store.dialect === 'sqlite' ? Number.POSITIVE_INFINITY : now - OTHER_INSTANCE_CUT_OFF_MS;
    return this.store.idempotency.claim(call.keyId, call.idemKey, await requestHash(call), now, now - RETENTION_MS, { id: this.holderId, othersCutOffBeforeMs });
  }
}

function unkeptKey(call: IdempotentCall): string {
  return `${call.keyId}\n${call.idemKey}`;
}

/** A messenger call that failed after it may have reached the messenger (a timeout, a reset): it may have been delivered. */
function mayHaveArrived(error: unknown): boolean {
  return error instanceof UpstreamUnavailableError && !error.neverArrived;
}

/** Documents the `Idempotency-Key` header of a send route (its handler reads it with `@IdempotencyKey()`). */
export function Idempotent(): MethodDecorator {
  return ApiHeader({ name: 'Idempotency-Key', required: false, description: 'retries with the same key and body return the first answer; another body gives 409 IDEMPOTENCY_CONFLICT' });
}
