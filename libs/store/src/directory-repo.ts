import type { Scope } from '@brandwire/domain';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from './schema';
import { ensureSettings } from './settings-repo';
import type { Transactions } from './transactions';

export interface BrandRecord {
  id: string;
  name: string;
}

export interface ChannelRecord {
  key: string;
  brandId: string;
  name: string;
  type: string;
  chatbotBuilder: boolean;
  planConsultations: number;
  senderKey: string;
}

/** A channel with the consultations its plan has used so far. */
export interface ChannelUsage extends ChannelRecord {
  consultationsUsed: number;
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  scope: Scope;
  brandIds: string[];
}

export interface NewApiKey extends ApiKeyRecord {
  tokenHash: string;
}

/** A key as its list shows it. */
export interface ListedApiKey extends ApiKeyRecord {
  createdMs: number;
}

type ChannelRow = Selectable<Database['channels']>;

function toChannel(row: ChannelRow): ChannelUsage {
  return {
    consultationsUsed: row.consultations_used,
    key: row.key,
    brandId: row.brand_id,
    name: row.name,
    type: row.type,
    chatbotBuilder: row.chatbot_builder === 1,
    planConsultations: row.plan_consultations,
    senderKey: row.sender_key,
  };
}

/** Brands, their channels, and the API keys that may act on them. */
export class DirectoryRepo {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly tx: Transactions,
    private readonly now: () => number,
  ) {}

  async upsertBrand(brand: BrandRecord): Promise<void> {
    await this.db
      .insertInto('brands')
      .values({ id: brand.id, name: brand.name, created_ms: this.now() })
      .onConflict((oc) => oc.column('id').doUpdateSet({ name: brand.name }))
      .execute();
  }

  /**
   * A channel as the seed file describes it. Its plan applies when the channel is made and when the seed's value
   * changes; a restart with the same seed keeps a plan an Admin set since.
   */
  async upsertChannel(channel: ChannelRecord): Promise<void> {
    const values = {
      brand_id: channel.brandId,
      name: channel.name,
      type: channel.type,
      chatbot_builder: channel.chatbotBuilder ? 1 : 0,
      sender_key: channel.senderKey,
    };
    await this.tx.run(async (trx) => {
      await trx
        .insertInto('channels')
        .values({ key: channel.key, created_ms: this.now(), plan_consultations: channel.planConsultations, seed_plan: channel.planConsultations, ...values })
        .onConflict((oc) =>
          oc.column('key').doUpdateSet({
            ...values,
            // a channel whose seed value is not known yet (made before migration 0011) keeps its plan
            plan_consultations: sql<number>`case when channels.seed_plan is not null and channels.seed_plan <> excluded.seed_plan then excluded.plan_consultations else channels.plan_consultations end`,
            seed_plan: sql<number>`excluded.seed_plan`,
          }),
        )
        .execute();
      await trx
        .insertInto('channel_seq')
        .values({ channel_key: channel.key, last_seq: 0 })
        .onConflict((oc) => oc.column('channel_key').doNothing())
        .execute();
      await ensureSettings(trx, channel.key);
    });
  }

  async listBrands(): Promise<BrandRecord[]> {
    return this.db.selectFrom('brands').select(['id', 'name']).orderBy('id').execute();
  }

  async listChannels(): Promise<ChannelUsage[]> {
    const rows = await this.db.selectFrom('channels').selectAll().orderBy('key').execute();
    return rows.map(toChannel);
  }

  async findChannel(key: string): Promise<ChannelUsage | undefined> {
    const row = await this.db.selectFrom('channels').selectAll().where('key', '=', key).executeTakeFirst();
    return row && toChannel(row);
  }

  async findChannelBySenderKey(senderKey: string): Promise<ChannelRecord | undefined> {
    const row = await this.db.selectFrom('channels').selectAll().where('sender_key', '=', senderKey).executeTakeFirst();
    return row && toChannel(row);
  }

  /**
   * Stores a key by the hash of its token; storing the same token again updates its name, scope and brands (it
   * keeps its id). Instances applying one seed at once store each key once: the insert that finds the token taken
   * updates that row instead, and the row's lock makes them replace its brands one after the other. A revoked key
   * stays revoked: 'revoked' says so and nothing changes.
   */
  async saveApiKey(key: NewApiKey): Promise<'saved' | 'revoked'> {
    return this.tx.run(async (trx) => {
      const saved = await trx
        .insertInto('api_keys')
        .values({ id: key.id, token_hash: key.tokenHash, name: key.name, scope: key.scope, created_ms: this.now(), revoked_ms: null })
        .onConflict((oc) => oc.column('token_hash').doUpdateSet({ name: key.name, scope: key.scope }).where('api_keys.revoked_ms', 'is', null))
        .returning('id')
        .executeTakeFirst();
      if (saved === undefined) return 'revoked';
      await trx.deleteFrom('api_key_brands').where('key_id', '=', saved.id).execute();
      if (key.brandIds.length > 0) {
        await trx
          .insertInto('api_key_brands')
          .values(key.brandIds.map((brandId) => ({ key_id: saved.id, brand_id: brandId })))
          .execute();
      }
      return 'saved';
    });
  }

  /** The key behind a token hash, unless it was revoked. */
  async findApiKeyByHash(tokenHash: string): Promise<ApiKeyRecord | undefined> {
    const key = await this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'scope'])
      .where('token_hash', '=', tokenHash)
      .where('revoked_ms', 'is', null)
      .executeTakeFirst();
    if (!key) return undefined;
    const brands = await this.db.selectFrom('api_key_brands').select('brand_id').where('key_id', '=', key.id).orderBy('brand_id').execute();
    return { id: key.id, name: key.name, scope: key.scope as Scope, brandIds: brands.map((b) => b.brand_id) };
  }

  /** The key of this id, unless it was revoked. */
  async findApiKeyById(id: string): Promise<ListedApiKey | undefined> {
    const key = await this.db.selectFrom('api_keys').select(['id', 'name', 'scope', 'created_ms']).where('id', '=', id).where('revoked_ms', 'is', null).executeTakeFirst();
    if (!key) return undefined;
    const brands = await this.db.selectFrom('api_key_brands').select('brand_id').where('key_id', '=', key.id).orderBy('brand_id').execute();
    return { id: key.id, name: key.name, scope: key.scope as Scope, brandIds: brands.map((b) => b.brand_id), createdMs: Number(key.created_ms) };
  }

  /** Every key not revoked, oldest first, with its brands. */
  async listApiKeys(): Promise<ListedApiKey[]> {
    const keys = await this.db
      .selectFrom('api_keys')
      .select(['id', 'name', 'scope', 'created_ms'])
      .where('revoked_ms', 'is', null)
      .orderBy('created_ms')
      .orderBy('id')
      .execute();
    const links = await this.db
      .selectFrom('api_key_brands')
      .innerJoin('api_keys', 'api_keys.id', 'api_key_brands.key_id')
      .select(['api_key_brands.key_id', 'api_key_brands.brand_id'])
      .where('api_keys.revoked_ms', 'is', null)
      .orderBy('api_key_brands.brand_id')
      .execute();
    const brandsOf = new Map<string, string[]>();
    for (const link of links) brandsOf.set(link.key_id, [...(brandsOf.get(link.key_id) ?? []), link.brand_id]);
    return keys.map((key) => ({ id: key.id, name: key.name, scope: key.scope as Scope, brandIds: brandsOf.get(key.id) ?? [], createdMs: Number(key.created_ms) }));
  }

  /** Revokes a key for good; false when there is no such key or it was revoked already. */
  async revokeApiKey(id: string): Promise<boolean> {
    const result = await this.db.updateTable('api_keys').set({ revoked_ms: this.now() }).where('id', '=', id).where('revoked_ms', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** One round trip to the database, for a health check. */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }

  /** Every key ever stored, revoked ones too. */
  async countApiKeys(): Promise<number> {
    const row = await this.db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
