import { rm } from 'node:fs/promises';
import { isUpstreamSuccess } from '@brandwire/domain';
import type { ChannelRecord, Store, UploadKind } from '@brandwire/store';
import type { MessengerPort, ShiftableClock } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, MESSENGER, STORE } from '../app/tokens';
import type { FileType } from '../media';
import { type ImagePreparation, prepareImage } from './image-preparation';

export type UploadOutcome =
  | { ok: true; url: string; name: string; size: number }
  | { ok: false; code: string; message: string };

/** Uploads files to the messenger (which only sends files it hosts) and remembers the URLs it returns. */
@Injectable()
export class MessengerUploadsService {
  constructor(
    @Inject(MESSENGER) private readonly messenger: MessengerPort,
    @Inject(STORE) private readonly store: Store,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
  ) {}

  /** Prepares an uploaded image as asked and uploads it as a rich or plain image. */
  async uploadImage(channel: ChannelRecord, upload: { path: string; name: string }, how: ImagePreparation): Promise<UploadOutcome> {
    const prepared = await prepareImage(upload.path, how);
    if (!prepared.ok) return prepared;
    try {
      const imageType = how === 'plain' ? 'plain' : 'rich';
      const result = await this.messenger.uploadImage({ senderKey: channel.senderKey, data: prepared.path, fileName: upload.name, imageType });
      if (!isUpstreamSuccess(result.code) || !result.url) return { ok: false, code: result.code, message: result.message ?? 'the messenger refused the image' };
      await this.remember(channel, result.url, 'image', imageType, upload.name, prepared.info.bytes);
      return { ok: true, url: result.url, name: upload.name, size: prepared.info.bytes };
    } finally {
      if (prepared.path !== upload.path) await rm(prepared.path, { force: true });
    }
  }

  async uploadFile(channel: ChannelRecord, upload: { path: string; name: string; size: number }, fileType: FileType): Promise<UploadOutcome> {
    const result = await this.messenger.uploadFile({ senderKey: channel.senderKey, data: upload.path, fileName: upload.name, fileType });
    if (!isUpstreamSuccess(result.code) || !result.url) return { ok: false, code: result.code, message: result.message ?? 'the messenger refused the file' };
    await this.remember(channel, result.url, fileType, null, result.name ?? upload.name, result.size ?? upload.size);
    return { ok: true, url: result.url, name: result.name ?? upload.name, size: result.size ?? upload.size };
  }

  private remember(channel: ChannelRecord, url: string, kind: UploadKind, imageType: 'rich' | 'plain' | null, name: string, size: number): Promise<void> {
    return this.store.uploads.save({ url, channelKey: channel.key, kind, imageType, name, size, createdMs: this.clock.now() });
  }
}
