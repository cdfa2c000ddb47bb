import type { Scope } from '@brandwire/domain';
import type { Kysely, Selectable } from 'kysely';
import type { Database } from './schema';

export type DeviceCodeState = 'pending' | 'approved' | 'denied' | 'issued';

/** What the approving person granted: the new key's name, scope and brands. */
export interface DeviceGrant {
  name: string;
  scope: Scope;
  brandIds: string[];
}

export interface DeviceCodeRecord {
  /** SHA-256 hex of the device code; the code itself is never stored */
  deviceCodeHash: string;
  userCode: string;
  createdMs: number;
  expiresMs: number;
  intervalSeconds: number;
  lastPollMs: number;
  state: DeviceCodeState;
  grant: DeviceGrant | undefined;
  decidedBy: string | null;
  issuedKeyId: string | null;
}

export interface NewDeviceCode {
  deviceCodeHash: string;
  userCode: string;
  createdMs: number;
  expiresMs: number;
  intervalSeconds: number;
}

type Row = Selectable<Database['device_codes']>;

function toRecord(row: Row): DeviceCodeRecord {
  const grant =
    row.grant_scope && row.grant_name && row.grant_brands
      ? { name: row.grant_name, scope: row.grant_scope as Scope, brandIds: JSON.parse(row.grant_brands) as string[] }
      : undefined;
  return {
    deviceCodeHash: row.device_code_hash,
    userCode: row.user_code,
    createdMs: Number(row.created_ms),
    expiresMs: Number(row.expires_ms),
    intervalSeconds: row.interval_s,
    lastPollMs: Number(row.last_poll_ms),
    state: row.state as DeviceCodeState,
    grant,
    decidedBy: row.decided_by,
    issuedKeyId: row.issued_key_id,
  };
}

/** Device authorization codes (RFC 8628) of the CLI's `login`. Every state change is a conditional update. */
export class DeviceCodesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a new pending code; false when the user code is already taken (the caller draws another). */
  async create(code: NewDeviceCode): Promise<boolean> {
    const result = await this.db
      .insertInto('device_codes')
      .values({
        device_code_hash: code.deviceCodeHash,
        user_code: code.userCode,
        created_ms: code.createdMs,
        expires_ms: code.expiresMs,
        interval_s: code.intervalSeconds,
        state: 'pending',
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }

  async findByUserCode(userCode: string): Promise<DeviceCodeRecord | undefined> {
    const row = await this.db.selectFrom('device_codes').selectAll().where('user_code', '=', userCode).executeTakeFirst();
    return row && toRecord(row);
  }

  async findByDeviceCodeHash(hash: string): Promise<DeviceCodeRecord | undefined> {
    const row = await this.db.selectFrom('device_codes').selectAll().where('device_code_hash', '=', hash).executeTakeFirst();
    return row && toRecord(row);
  }

  /** Notes a poll and the polling interval in force after it. */
  async recordPoll(hash: string, nowMs: number, intervalSeconds: number): Promise<void> {
    await this.db.updateTable('device_codes').set({ last_poll_ms: nowMs, interval_s: intervalSeconds }).where('device_code_hash', '=', hash).execute();
  }

  /** Approves a pending code with its grant; false when it was no longer pending. */
  async approve(userCode: string, grant: DeviceGrant, decidedBy: string): Promise<boolean> {
    const result = await this.db
      .updateTable('device_codes')
      .set({ state: 'approved', grant_name: grant.name, grant_scope: grant.scope, grant_brands: JSON.stringify(grant.brandIds), decided_by: decidedBy })
      .where('user_code', '=', userCode)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Denies a pending code; false when it was no longer pending. */
  async deny(userCode: string, decidedBy: string): Promise<boolean> {
    const result = await this.db
      .updateTable('device_codes')
      .set({ state: 'denied', decided_by: decidedBy })
      .where('user_code', '=', userCode)
      .where('state', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Moves an approved code to issued; exactly one of several concurrent polls gets true and creates the key. */
  async claimForIssue(hash: string, keyId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('device_codes')
      .set({ state: 'issued', issued_key_id: keyId })
      .where('device_code_hash', '=', hash)
      .where('state', '=', 'approved')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Deletes the codes that expired before `beforeMs`. */
  async purgeExpired(beforeMs: number): Promise<number> {
    const result = await this.db.deleteFrom('device_codes').where('expires_ms', '<', beforeMs).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
