import { formatAttachmentLine, isUpstreamSuccess } from '@brandwire/domain';
import type { ChannelRecord, NewBubble, SentContent, Store } from '@brandwire/store';
import { type MessengerPort, type ShiftableClock, type UpstreamResult, UpstreamUnavailableError } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, MESSENGER, STORE } from '../../app/tokens';
import { BillingService } from '../../billing/billing.service';
import { BrandAccessService } from '../../common/auth/brand-access.service';
import type { Principal } from '../../common/auth/principal';
import { fail } from '../../common/errors/envelope';
import { SendSerials } from '../../common/http/send-serials';
import { AcceptedSends } from '../../journal/accepted-sends';
import { JournalWriter } from '../../journal/journal-writer.service';
import { FILE_TYPE_MAX_BYTES, type FileType, claimsImage } from '../../media';
import { MessengerUploadsService, type UploadOutcome } from '../../uploads/messenger-uploads.service';
import { CustomerSendTurns } from '../send/customer-send-turns';
import { type IncomingFile, type PlannedBubble, planBubbles } from './attachment-plan';
import { ImageRun, type SentImage } from './image-run';
import type { AttachmentResultDto, SendAttachmentsDto, SendAttachmentsResponseDto } from './dto/send-attachments.dto';

function fileTypeOf(file: IncomingFile): FileType {
  const type = file.contentType ?? '';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return 'file';
}

/**
 * Sends files as bubbles, one serial each: jpg, png and gif (by Content-Type or extension) are prepared as images
 * (rich: padded into the card geometry; plain: oriented and scaled) and uploaded, other files uploaded as files.
 * A failed item is never delivered and does not stop the others. The images of one send are journaled as one
 * `agent` item, deleted once all are deleted; every item is journaled in the order the customer received it, and
 * the send takes its turn among the other sends to the customer (CustomerSendTurns).
 */
@Injectable()
export class AttachmentsService {
  constructor(
    private readonly access: BrandAccessService,
    private readonly billing: BillingService,
    private readonly journal: JournalWriter,
    private readonly accepted: AcceptedSends,
    private readonly uploads: MessengerUploadsService,
    private readonly turns: CustomerSendTurns,
    @Inject(MESSENGER) private readonly messenger: MessengerPort,
    private readonly serials: SendSerials,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
    @Inject(STORE) private readonly store: Store,
  ) {}

  /** Sends the uploaded files; the caller removes them afterwards, whatever happened. */
  async send(principal: Principal, dto: SendAttachmentsDto, files: Express.Multer.File[] | undefined): Promise<SendAttachmentsResponseDto> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    if (!files || files.length === 0) throw fail('BAD_REQUEST', 'files is required (one or more multipart parts "files")');
    const empty = files.find((f) => f.size === 0);
    if (empty) throw fail('BAD_REQUEST', `files: "${empty.originalname}" is empty (0 bytes); nothing was sent`);
    const incoming = files.map((f) => incomingFile(f));
    return this.turns.run(channel.key, dto.userKey, () => this.sendInTurn(channel, dto, incoming));
  }

  private async sendInTurn(channel: ChannelRecord, dto: SendAttachmentsDto, incoming: IncomingFile[]): Promise<SendAttachmentsResponseDto> {
    const room = await this.store.journal.getRoom(channel.key, dto.userKey);
    this.serials.noteSession(room?.sessionId);
    const charge = await this.billing.chargeInRoom(channel, dto.userKey, 'send_attachments', room);
    const style = dto.imageStyle ?? 'rich';
    const text = dto.text !== undefined && dto.text.trim() !== '' ? dto.text : null;
    const runText = style === 'rich' ? text : null;
    // an earlier attempt of this keyed send put the text on an image already: it goes on no other
    const run = new ImageRun(runText, runText !== null && this.serials.captionSentBefore(runText));
    const send: AttachmentSend = { channel, userKey: dto.userKey, style, run, delivered: false, deliveredNow: false, unreachable: undefined };
    const results: AttachmentResultDto[] = [];
    try {
      for (const bubble of planBubbles(incoming, dto.text, style)) {
        if (bubble.kind !== 'image') results.push(...(await this.endImages(send)));
        results.push(await this.attempt(send, bubble));
      }
      results.push(...(await this.endImages(send)));
    } catch (error) {
      // a bubble the messenger accepted is served, also when journaling it failed
      if (!send.deliveredNow) await charge.release();
      throw error;
    } finally {
      // an error mid-send still journals the images the customer already has
      await this.journalImages(channel, dto.userKey, send.run.end()?.images ?? []);
    }
    const ok = results.some((r) => r.ok);
    const served = results.find((r) => r.ok);
    if (served && send.deliveredNow) await this.accepted.record(served.serial, [() => charge.keep()]);
    else await charge.release();
    // delivered only by an earlier attempt of this keyed send: the consultation of then is the one served
    if (served && !send.deliveredNow) {
      const then = this.serials.earlierSession() ?? room?.sessionId;
      if (then) await this.accepted.record(served.serial, [() => this.billing.chargeDelivered(channel, dto.userKey, 'send_attachments', then)]);
    }
    // nothing reached the customer because the messenger could not be reached: answered as any send is (502)
    if (!ok && send.unreachable) throw send.unreachable;
    return { ok, results };
  }

  /**
   * One bubble, or its failed item: once the messenger cannot be reached, this bubble and the ones after it fail
   * their items (not tried again), and the bubbles delivered before keep their results and serials.
   */
  private async attempt(send: AttachmentSend, bubble: PlannedBubble, serial?: string): Promise<AttachmentResultDto> {
    // the bubbles are not in the order of the parts (images go first): an item names the file it came from
    const named = (result: AttachmentResultDto): AttachmentResultDto => (bubble.kind === 'text' ? result : { ...result, file: bubble.file.name });
    const own = serial ?? (await this.serials.next());
    if (!send.unreachable) {
      try {
        return named(await this.sendBubble(send, bubble, own));
      } catch (error) {
        if (!(error instanceof UpstreamUnavailableError)) throw error;
        send.unreachable = error;
      }
    }
    return named({ kind: bubble.kind, ok: false, code: 'UPSTREAM_UNAVAILABLE', serial: own, message: `the messenger could not be reached: ${send.unreachable.message}` });
  }

  /** Journals the images delivered, and sends the agent's text on its own when none of them could carry it. */
  private async endImages(send: AttachmentSend): Promise<AttachmentResultDto[]> {
    const ended = send.run.end();
    if (!ended) return [];
    // the text's own bubble has its serial whether it is sent or not: every attempt of a keyed send then hands each
    // bubble the same serial, whichever images reached the customer
    const textSerial = await this.serials.next();
    await this.journalImages(send.channel, send.userKey, ended.images);
    if (ended.uncarriedText === null) return [];
    return [await this.attempt(send, { kind: 'text', text: ended.uncarriedText }, textSerial)];
  }

  private async sendBubble(send: AttachmentSend, bubble: PlannedBubble, serial: string): Promise<AttachmentResultDto> {
    const { channel, userKey, style, run } = send;
    // an earlier attempt of this keyed send, cut off before its answer was kept, delivered and journaled it
    if (await this.serials.journaledBefore(channel.key, serial)) {
      send.delivered = true;
      // its image group was journaled whole: the image carried its caption as it did then, and is not journaled again
      if (bubble.kind === 'image') {
        const planned = run.captionOf(bubble.caption);
        const sentBefore = this.serials.contentBefore(serial);
        run.deliveredBefore(sentBefore ? sentBefore.caption : planned);
      }
      return { kind: bubble.kind, ok: true, code: '0', serial };
    }
    const senderKey = channel.senderKey;
    switch (bubble.kind) {
      case 'text': {
        const result = this.delivery(send, serial, await this.messenger.writeText({ senderKey, userKey, serialNumber: serial, message: bubble.text }));
        if (isUpstreamSuccess(result.code)) {
          await this.journalOne(channel, userKey, serial, bubble.text, { serial, kind: 'text', text: bubble.text, groupIndex: 0 });
        }
        return outcome('text', serial, result);
      }
      case 'image': {
        const planned = run.captionOf(bubble.caption);
        const sentBefore = this.serials.contentBefore(serial);
        const caption = sentBefore ? sentBefore.caption : planned;
        const uploaded = sentBefore ?? (await this.uploaded(serial, caption, await this.uploads.uploadImage(channel, bubble.file, style === 'rich' ? 'rich-padded' : 'plain')));
        if (!('url' in uploaded)) return { kind: 'image', ok: false, code: uploaded.code, serial, message: `${bubble.file.name}: ${uploaded.message}` };
        const result = this.delivery(
          send,
          serial,
          style === 'rich'
            ? await this.messenger.sendRich({
                senderKey,
                userKey,
                serialNumber: serial,
                envelope: { chat_bubble_type: 'IMAGE', message: caption, attachment: { image: { img_url: uploaded.url } } },
              })
            : await this.messenger.writeImage({ senderKey, userKey, serialNumber: serial, imageUrl: uploaded.url }),
        );
        if (isUpstreamSuccess(result.code)) {
          run.delivered({ serial, url: uploaded.url, caption, groupIndex: run.groupSize });
        }
        return outcome('image', serial, result);
      }
      case 'file': {
        const fileType = fileTypeOf(bubble.file);
        const limit = FILE_TYPE_MAX_BYTES[fileType];
        if (bubble.file.size > limit) {
          return { kind: 'file', ok: false, code: 'PAYLOAD_TOO_LARGE', serial, message: `${bubble.file.name}: ${fileType} files are limited to ${limit / 1024 / 1024} MB` };
        }
        const uploaded = this.serials.contentBefore(serial) ?? (await this.uploaded(serial, null, await this.uploads.uploadFile(channel, bubble.file, fileType)));
        if (!('url' in uploaded)) return { kind: 'file', ok: false, code: uploaded.code, serial, message: `${bubble.file.name}: ${uploaded.message}` };
        const result = this.delivery(
          send,
          serial,
          await this.messenger.writeFile({
            senderKey,
            userKey,
            serialNumber: serial,
            fileUrl: uploaded.url,
            fileName: uploaded.name,
            fileSize: uploaded.size,
            messageType: fileType === 'audio' ? 'AU' : 'FI',
          }),
        );
        if (isUpstreamSuccess(result.code)) {
          const text = formatAttachmentLine({ type: fileType === 'file' ? 'file' : fileType, url: uploaded.url, caption: uploaded.name });
          await this.journalOne(channel, userKey, serial, text, { serial, kind: 'file', text: null, groupIndex: 0 });
        }
        return outcome('file', serial, result);
      }
      default: {
        const unreachable: never = bubble;
        throw new Error(`unknown bubble ${JSON.stringify(unreachable)}`);
      }
    }
  }

  /**
   * The messenger's answer to a bubble, read as a success when an earlier attempt delivered it; the send is served
   * either way, by this attempt only when the messenger took the bubble now.
   */
  private delivery(send: AttachmentSend, serial: string, answered: UpstreamResult): UpstreamResult {
    const result = this.serials.outcome(serial, answered);
    if (isUpstreamSuccess(result.code)) send.delivered = true;
    if (isUpstreamSuccess(answered.code)) send.deliveredNow = true;
    return result;
  }

  /** A successful upload as the bubble is sent with it, noted in a keyed send first; a failed one as it is. */
  private async uploaded(serial: string, caption: string | null, upload: UploadOutcome): Promise<SentContent | Extract<UploadOutcome, { ok: false }>> {
    if (!upload.ok) return upload;
    const content = { url: upload.url, name: upload.name, size: upload.size, caption };
    await this.serials.noteContent(serial, content);
    return content;
  }

  private journalOne(channel: ChannelRecord, userKey: string, serial: string, text: string, bubble: NewBubble): Promise<void> {
    const item = { text, serial, bubbles: [bubble], timestampUnixMs: this.clock.now() };
    return this.accepted.record(serial, [() => this.journal.appendAgentSend(channel.key, userKey, item)]);
  }

  /** The images of one send as one `agent` item whose serial is the first image's. */
  private async journalImages(channel: ChannelRecord, userKey: string, images: readonly SentImage[]): Promise<void> {
    const first = images[0];
    if (!first) return;
    const item = {
      text: images.map((i) => formatAttachmentLine({ type: 'photo', url: i.url, ...(i.caption ? { caption: i.caption } : {}) })).join('\n'),
      serial: first.serial,
      bubbles: images.map((i) => ({ serial: i.serial, kind: 'image' as const, text: i.caption, groupIndex: i.groupIndex })),
      timestampUnixMs: this.clock.now(),
    };
    await this.accepted.record(first.serial, [() => this.journal.appendAgentSend(channel.key, userKey, item)]);
  }
}

/** One attachment send in progress. */
interface AttachmentSend {
  channel: ChannelRecord;
  userKey: string;
  style: 'rich' | 'plain';
  run: ImageRun;
  /** set once a bubble was delivered, by this attempt or an earlier one of a keyed send */
  delivered: boolean;
  /** set once the messenger accepted a bubble of this attempt */
  deliveredNow: boolean;
  /** set once the messenger could not be reached */
  unreachable: UpstreamUnavailableError | undefined;
}

function incomingFile(file: Express.Multer.File): IncomingFile {
  // the declared type decides (the spec's rule): a file declared as jpg/png/gif that is not one fails as an image
  return { path: file.path, name: file.originalname, size: file.size, contentType: file.mimetype, isImage: claimsImage(file.mimetype, file.originalname) };
}

function outcome(kind: AttachmentResultDto['kind'], serial: string, result: UpstreamResult): AttachmentResultDto {
  return isUpstreamSuccess(result.code)
    ? { kind, ok: true, code: '0', serial }
    : { kind, ok: false, code: result.code, serial, message: result.message ?? 'the messenger rejected the bubble' };
}
