import type { Kysely, Transaction } from 'kysely';
import { randomBytes } from 'node:crypto';
import type { Database } from './schema';

export interface ChannelSettings {
  channelKey: string;
  webhookUrl: string | null;
  /** Standard Webhooks secret, `whsec_<base64>` */
  webhookSecret: string;
  chatActive: boolean;
  schedule: unknown;
}

export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Creates a channel's settings row with a fresh signing secret, unless it exists. */
export async function ensureSettings(db: Kysely<Database> | Transaction<Database>, channelKey: string): Promise<void> {
  await db
    .insertInto('channel_settings')
    .values({ channel_key: channelKey, webhook_url: null, webhook_secret: newWebhookSecret(), schedule: null })
    .onConflict((oc) => oc.column('channel_key').doNothing())
    .execute();
}

/** Per-channel settings that the service keeps: the inbound webhook and its secret, chat on/off, consultation hours. */
export class SettingsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async get(channelKey: string): Promise<ChannelSettings> {
    let row = await this.db.selectFrom('channel_settings').selectAll().where('channel_key', '=', channelKey).executeTakeFirst();
    if (!row) {
      await ensureSettings(this.db, channelKey);
      row = await this.db.selectFrom('channel_settings').selectAll().where('channel_key', '=', channelKey).executeTakeFirstOrThrow();
    }
    return {
      channelKey,
      webhookUrl: row.webhook_url,
      webhookSecret: row.webhook_secret,
      chatActive: row.chat_active === 1,
      schedule: row.schedule === null ? null : (JSON.parse(row.schedule) as unknown),
    };
  }

  async setWebhookUrl(channelKey: string, url: string | null): Promise<void> {
    await ensureSettings(this.db, channelKey);
    await this.db.updateTable('channel_settings').set({ webhook_url: url }).where('channel_key', '=', channelKey).execute();
  }

  async setChatActive(channelKey: string, active: boolean): Promise<void> {
    await ensureSettings(this.db, channelKey);
    await this.db.updateTable('channel_settings').set({ chat_active: active ? 1 : 0 }).where('channel_key', '=', channelKey).execute();
  }

  async setSchedule(channelKey: string, schedule: unknown): Promise<void> {
    await ensureSettings(this.db, channelKey);
    await this.db.updateTable('channel_settings').set({ schedule: schedule === null ? null : JSON.stringify(schedule) }).where('channel_key', '=', channelKey).execute();
  }
}
