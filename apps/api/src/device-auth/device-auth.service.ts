import { randomBytes } from 'node:crypto';
import type { Store } from '@brandwire/store';
import type { ShiftableClock } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, STORE } from '../app/tokens';
import { hashToken, newKeyId, refuseBrandsOutside, storeNewKey } from '../common/auth/api-keys.service';
import type { Principal } from '../common/auth/principal';
import { fail } from '../common/errors/envelope';
import type { ApproveDeviceDto, DenyDeviceDto, DeviceCodeResponseDto, DeviceDecisionResponseDto, DeviceTokenErrorDto, DeviceTokenResponseDto } from './dto/device-auth.dto';
import { displayUserCode, newUserCode, normalizeUserCode } from './user-code';

export const DEVICE_CODE_TTL_SECONDS = 600;
export const POLL_INTERVAL_SECONDS = 5;
/** RFC 8628 section 3.5: after slow_down the interval grows by 5 seconds */
const SLOW_DOWN_STEP_SECONDS = 5;
/** a poll this much early still counts as on time (timers and network jitter) */
const POLL_TOLERANCE_MS = 250;
const DEVICE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
const DEFAULT_KEY_NAME = 'brandwire-cli';

export type TokenOutcome = { issued: true; body: DeviceTokenResponseDto } | { issued: false; body: DeviceTokenErrorDto };

function refused(error: string, description: string, interval?: number): TokenOutcome {
  return { issued: false, body: { error, error_description: description, ...(interval !== undefined ? { interval } : {}) } };
}

/** The device authorization grant (RFC 8628) that pairs the CLI with a key approved by an Admin on /pair. */
@Injectable()
export class DeviceAuthService {
  constructor(
    @Inject(STORE) private readonly store: Store,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
  ) {}

  /** A new device code and user code; `baseUrl` is where the person's browser reaches this service. */
  async start(baseUrl: string): Promise<DeviceCodeResponseDto> {
    const now = this.clock.now();
    await this.store.deviceCodes.purgeExpired(now - 3_600_000);
    const deviceCode = randomBytes(32).toString('base64url');
    for (let attempt = 0; attempt < 5; attempt++) {
      const userCode = newUserCode();
      const stored = await this.store.deviceCodes.create({
        deviceCodeHash: hashToken(deviceCode),
        userCode,
        createdMs: now,
        expiresMs: now + DEVICE_CODE_TTL_SECONDS * 1000,
        intervalSeconds: POLL_INTERVAL_SECONDS,
      });
      if (!stored) continue;
      const shown = displayUserCode(userCode);
      return {
        device_code: deviceCode,
        user_code: shown,
        verification_uri: `${baseUrl}/pair`,
        verification_uri_complete: `${baseUrl}/pair?code=${shown}`,
        expires_in: DEVICE_CODE_TTL_SECONDS,
        interval: POLL_INTERVAL_SECONDS,
      };
    }
    throw new Error('could not draw a free user code in 5 attempts');
  }

  /** One poll of the CLI: the key once approved, otherwise the RFC's error. */
  async poll(body: Record<string, unknown> | undefined): Promise<TokenOutcome> {
    const deviceCode = body?.['device_code'];
    const grantType = body?.['grant_type'];
    if (grantType !== undefined && grantType !== DEVICE_GRANT_TYPE) return refused('unsupported_grant_type', `grant_type must be ${DEVICE_GRANT_TYPE}`);
    if (typeof deviceCode !== 'string' || deviceCode === '') return refused('invalid_request', 'device_code is required');
    const hash = hashToken(deviceCode);
    const code = await this.store.deviceCodes.findByDeviceCodeHash(hash);
    if (!code) return refused('invalid_grant', 'unknown device_code');
    const now = this.clock.now();
    if (code.state === 'issued') return refused('invalid_grant', 'this device_code was already used');
    if (now >= code.expiresMs) return refused('expired_token', 'the device code expired: run login again');
    switch (code.state) {
      case 'denied':
        return refused('access_denied', 'the pairing was denied');
      case 'approved':
        // an approval stands only while the key that gave it does
        if (code.decidedBy !== null && (await this.store.directory.findApiKeyById(code.decidedBy)) === undefined) {
          return refused('access_denied', 'the key that approved this pairing has been revoked since: run login again and have it approved anew');
        }
        return this.issue(hash, code.grant);
      case 'pending': {
        const early = now - code.lastPollMs < code.intervalSeconds * 1000 - POLL_TOLERANCE_MS;
        const interval = early ? code.intervalSeconds + SLOW_DOWN_STEP_SECONDS : code.intervalSeconds;
        await this.store.deviceCodes.recordPoll(hash, now, interval);
        return early
          ? refused('slow_down', `poll at most every ${interval} seconds`, interval)
          : refused('authorization_pending', 'waiting for the code to be approved on the pairing page');
      }
      default: {
        const unreachable: never = code.state;
        throw new Error(`unknown device code state ${String(unreachable)}`);
      }
    }
  }

  async approve(principal: Principal, dto: ApproveDeviceDto): Promise<DeviceDecisionResponseDto> {
    const userCode = await this.pendingCode(dto.user_code);
    refuseBrandsOutside(principal, dto.brands, 'the approving key');
    const grant = { name: dto.name ?? DEFAULT_KEY_NAME, scope: dto.scope, brandIds: [...new Set(dto.brands)].sort() };
    if (!(await this.store.deviceCodes.approve(userCode, grant, principal.keyId))) throw fail('BAD_REQUEST', 'this code was decided meanwhile');
    return { ok: true, user_code: displayUserCode(userCode), state: 'approved' };
  }

  async deny(principal: Principal, dto: DenyDeviceDto): Promise<DeviceDecisionResponseDto> {
    const userCode = await this.pendingCode(dto.user_code);
    if (!(await this.store.deviceCodes.deny(userCode, principal.keyId))) throw fail('BAD_REQUEST', 'this code was decided meanwhile');
    return { ok: true, user_code: displayUserCode(userCode), state: 'denied' };
  }

  private async pendingCode(input: string): Promise<string> {
    const userCode = normalizeUserCode(input);
    const code = userCode && (await this.store.deviceCodes.findByUserCode(userCode));
    if (!userCode || !code) throw fail('NOT_FOUND', `no pairing is waiting for the code "${input}": check the code shown by \`brandwire login\``);
    if (this.clock.now() >= code.expiresMs) throw fail('EXPIRED', 'this code expired: run `brandwire login` again');
    if (code.state !== 'pending') throw fail('BAD_REQUEST', `this code was already ${code.state === 'denied' ? 'denied' : 'approved'}`);
    return userCode;
  }

  private async issue(hash: string, grant: { name: string; scope: DeviceTokenResponseDto['scope']; brandIds: string[] } | undefined): Promise<TokenOutcome> {
    if (!grant) throw new Error('an approved device code has no grant');
    const keyId = newKeyId();
    if (!(await this.store.deviceCodes.claimForIssue(hash, keyId))) return refused('invalid_grant', 'this device_code was already used');
    const token = await storeNewKey(this.store, keyId, grant);
    return { issued: true, body: { access_token: token, token_type: 'Bearer', scope: grant.scope, brands: grant.brandIds, name: grant.name } };
  }
}
