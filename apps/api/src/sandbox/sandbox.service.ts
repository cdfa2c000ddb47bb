import type { ShiftableClock } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, SANDBOX } from '../app/tokens';
import { BrandAccessService } from '../common/auth/brand-access.service';
import type { Principal } from '../common/auth/principal';
import { fail } from '../common/errors/envelope';
import type { AdvanceClockDto, SandboxFaultDto, CustomerConsentDto, CustomerTapDto, CustomerWritesDto, OtherToolDeleteDto, SandboxBrandDto } from './dto/sandbox.dto';
import type { SandboxLink } from './sandbox-link';

export interface SandboxRefusal {
  ok: false;
  code: string;
  message: string;
}

interface CallbackRecordLike {
  path: string;
  status: number;
  body: unknown;
  /** why it got no answer (status 0) */
  error?: string;
  /** not delivered yet: the sandbox repeats it (`repeat`) or it waits behind one it repeats (`behind`) */
  queued?: 'repeat' | 'behind';
}

/**
 * The customer's action was done. `seq` is the last journal item it caused (0 when none), or null while the
 * sandbox messenger still repeats a callback the service did not take: `pending` says which, and the service
 * journals it when a repeat gets through. Repeating the call would do the action twice.
 */
export type SandboxAction = { ok: true; seq: number } | { ok: true; seq: null; pending: string };

/** Plays the simulated customers and the clock of the sandbox messenger for tests and demos. */
@Injectable()
export class SandboxService {
  constructor(
    private readonly access: BrandAccessService,
    @Inject(SANDBOX) private readonly sandbox: SandboxLink,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
  ) {}

  async customerWrites(principal: Principal, userKey: string, dto: CustomerWritesDto): Promise<SandboxAction | SandboxRefusal> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    if (dto.text === undefined && (dto.attachments?.length ?? 0) === 0) throw fail('BAD_REQUEST', 'text or attachments is required');
    const result = await this.sandbox.control.customerMessage(userKey, {
      senderKey: channel.senderKey,
      ...(dto.text !== undefined ? { text: dto.text } : {}),
      ...(dto.attachments ? { attachments: dto.attachments } : {}),
      ...(dto.reference ? { reference: dto.reference } : {}),
    });
    if (!result.ok) return refusal(result);
    return { ok: true, ...journaled(result.callbacks) };
  }

  async customerLeaves(principal: Principal, userKey: string, dto: SandboxBrandDto): Promise<SandboxAction | SandboxRefusal> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    const result = await this.sandbox.control.customerLeave(userKey, { senderKey: channel.senderKey });
    if (!result.ok) return refusal(result);
    return { ok: true, ...journaled(result.callbacks) };
  }

  async deleteFromOtherTool(principal: Principal, userKey: string, dto: OtherToolDeleteDto): Promise<SandboxAction | SandboxRefusal> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    const result = await this.sandbox.control.deleteByOtherTool(userKey, { senderKey: channel.senderKey, serial: dto.serial });
    if (!result.ok) return refusal(result);
    return { ok: true, ...journaled(result.callbacks) };
  }

  async customerConsents(principal: Principal, userKey: string, dto: CustomerConsentDto): Promise<{ ok: true; pending?: string } | SandboxRefusal> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    const result = await this.sandbox.control.consent(userKey, { senderKey: channel.senderKey, nickname: dto.nickname, phoneNumber: dto.phoneNumber });
    if (!result.ok) return refusal(result);
    const { pending } = journaled(result.callbacks);
    return pending === undefined ? { ok: true } : { ok: true, pending };
  }

  async customerTaps(principal: Principal, userKey: string, dto: CustomerTapDto): Promise<SandboxAction | SandboxRefusal> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    const result = await this.sandbox.control.tap(userKey, { senderKey: channel.senderKey, serial: dto.serial, quickReply: dto.quickReply });
    if (!result.ok) return refusal(result);
    return { ok: true, ...journaled(result.callbacks) };
  }

  async chat(principal: Principal, userKey: string, brand: string): Promise<unknown> {
    const channel = await this.access.channelFor(principal, brand, 'brand');
    const result = await this.sandbox.control.chat(userKey, channel.senderKey);
    if (!result.ok) return refusal(result);
    return { ok: true, bubbles: result.bubbles };
  }

  async advanceClock(dto: AdvanceClockDto): Promise<{ ok: true; now: number }> {
    const result = await this.sandbox.control.advanceClock(dto.advanceSeconds);
    if (!result.ok) {
      if (result.code === 'STATE_NOT_WRITABLE') throw fail('UPSTREAM_UNAVAILABLE', `the sandbox messenger ${result.message}`);
      throw fail('BAD_REQUEST', result.message);
    }
    if (!this.sandbox.sharesClock) this.clock.setOffset(result.now - Date.now());
    return { ok: true, now: result.now };
  }

  async setFault(dto: SandboxFaultDto): Promise<{ ok: true }> {
    const result = await this.sandbox.control.setFault(dto.call, Number(dto.code), dto.times ?? 1);
    if (!result.ok) throw fail('BAD_REQUEST', result.message);
    return { ok: true };
  }

  async clearFaults(): Promise<{ ok: true }> {
    const result = await this.sandbox.control.clearFaults();
    if (!result.ok) throw fail('BAD_REQUEST', result.message);
    return { ok: true };
  }
}

function refusal(result: { code: string; message: string }): SandboxRefusal {
  if (result.code === 'BAD_REQUEST' || result.code === 'EMPTY') throw fail('BAD_REQUEST', result.message);
  return { ok: false, code: result.code, message: result.message };
}

/**
 * What the service journaled of the callbacks a control call caused (they answer `{ok, seq}`): the last seq, or
 * null and why while one is being repeated. A callback that failed for good (a 4xx, no callback url) throws: the
 * action was done all the same, and the message says so.
 */
function journaled(callbacks: readonly CallbackRecordLike[]): { seq: number; pending?: undefined } | { seq: null; pending: string } {
  let seq = 0;
  for (const callback of callbacks) {
    if (callback.queued !== undefined) return { seq: null, pending: pendingReason(callback) };
    if (callback.status < 200 || callback.status > 299) {
      const answer = callback.status === 0 ? `it got no answer (${callback.error ?? 'no detail'})` : `the service answered HTTP ${callback.status}`;
      throw fail(
        'UPSTREAM_UNAVAILABLE',
        `the sandbox messenger's ${callback.path} callback failed for good: ${answer}; the customer's action was done (repeating this call does it again) but is not journaled`,
      );
    }
    const body = callback.body as { seq?: unknown } | null;
    if (typeof body?.seq === 'number') seq = body.seq;
  }
  return { seq };
}

function pendingReason(callback: CallbackRecordLike): string {
  if (callback.queued === 'behind') return `the sandbox messenger's ${callback.path} callback waits behind one it repeats; the service journals it when it arrives`;
  const answer = callback.status === 0 ? `got no answer (${callback.error ?? 'no detail'})` : `got HTTP ${callback.status}`;
  return `the sandbox messenger's ${callback.path} callback ${answer}; the messenger repeats it and the service journals it then`;
}
