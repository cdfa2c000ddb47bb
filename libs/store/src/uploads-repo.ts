import type { Kysely } from 'kysely';
import type { Database } from './schema';

export type UploadKind = 'image' | 'file' | 'audio' | 'video';

export interface UploadRecord {
  url: string;
  channelKey: string;
  kind: UploadKind;
  /** rich or plain, for images */
  imageType: 'rich' | 'plain' | null;
  name: string;
  size: number;
  createdMs: number;
}

/** The URLs the messenger returned for uploads made through the service. */
export class UploadsRepo {
  constructor(private readonly db: Kysely<Database>) {}

  async save(u: UploadRecord): Promise<void> {
    await this.db
      .insertInto('uploads')
      .values({ url: u.url, channel_key: u.channelKey, kind: u.kind, image_type: u.imageType, name: u.name, size: u.size, created_ms: u.createdMs })
      .onConflict((oc) => oc.column('url').doNothing())
      .execute();
  }

  async find(url: string): Promise<UploadRecord | undefined> {
    const row = await this.db.selectFrom('uploads').selectAll().where('url', '=', url).executeTakeFirst();
    if (!row) return undefined;
    return {
      url: row.url,
      channelKey: row.channel_key,
      kind: row.kind as UploadKind,
      imageType: row.image_type as UploadRecord['imageType'],
      name: row.name,
      size: Number(row.size),
      createdMs: Number(row.created_ms),
    };
  }
}
