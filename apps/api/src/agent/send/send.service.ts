import { type BubbleKind, CONSENT_BUBBLE_TEXT, type Operation, formatAttachmentLine, isUpstreamSuccess } from '@brandwire/domain';
import type { ChannelRecord, Store } from '@brandwire/store';
import type { MessengerPort, ShiftableClock, UpstreamResult } from '@brandwire/upstream';
import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, MESSENGER, STORE } from '../../app/tokens';
import { BillingService, type Charge } from '../../billing/billing.service';
import { ConsentOnce } from './consent-once';
import { CustomerSendTurns } from './customer-send-turns';
import { BrandAccessService } from '../../common/auth/brand-access.service';
import type { Principal } from '../../common/auth/principal';
import { fail } from '../../common/errors/envelope';
import { SendNotJournaledError } from '../../common/errors/send-not-journaled';
import { type EarlierDelivery, SendSerials } from '../../common/http/send-serials';
import { AcceptedSends } from '../../journal/accepted-sends';
import { JournalWriter } from '../../journal/journal-writer.service';
import type { SendResponseDto } from './dto/send-response.dto';
import type { SendImageDto } from './dto/send-image.dto';
import type { SendRichDto } from './dto/send-rich.dto';
import type { SendTextDto } from './dto/send-text.dto';
import { parseRichEnvelope } from './rich-envelope';

const DELIVERED: UpstreamResult = { code: '0', message: null };

/** What one bubble is, for the journal and for delete. */
export interface BubbleSpec {
  op: Operation;
  kind: BubbleKind;
  /** the journal text of the send */
  text: string;
  /** the text delete-by-text matches (the caption of an image, the body of a text) */
  bubbleText: string | null;
}

/**
 * Sends one bubble to a customer through the messenger: bills it, and journals it as an `agent` item with its
 * serial once the messenger accepted it. A refused send is given back to the plan and journals nothing. The sends
 * to one customer take turns (CustomerSendTurns).
 */
@Injectable()
export class SendService {
  constructor(
    private readonly access: BrandAccessService,
    private readonly journal: JournalWriter,
    private readonly accepted: AcceptedSends,
    private readonly billing: BillingService,
    private readonly consentOnce: ConsentOnce,
    private readonly turns: CustomerSendTurns,
    @Inject(STORE) private readonly store: Store,
    @Inject(MESSENGER) private readonly messenger: MessengerPort,
    private readonly serials: SendSerials,
    @Inject(CLOCK) private readonly clock: ShiftableClock,
  ) {}

  async sendText(principal: Principal, dto: SendTextDto): Promise<SendResponseDto> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    return this.deliverText(channel, dto.userKey, dto.text);
  }

  async sendRich(principal: Principal, dto: SendRichDto): Promise<SendResponseDto> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    const rich = parseRichEnvelope(dto.rich);
    // a PERSONAL bubble shows the messenger's fixed consent text, never a message put in the envelope
    const consent = rich.kind === 'consent';
    const text = consent ? CONSENT_BUBBLE_TEXT : (rich.message ?? `[${rich.bubbleType}]`);
    return this.deliver(channel, dto.userKey, { op: 'send_rich', kind: rich.kind, text, bubbleText: consent ? null : rich.message }, (serialNumber) =>
      this.messenger.sendRich({ senderKey: channel.senderKey, userKey: dto.userKey, serialNumber, envelope: rich.envelope }),
    );
  }

  /** A regular photo bubble from a plain image upload (tap opens it full size; no caption). */
  async sendImage(principal: Principal, dto: SendImageDto): Promise<SendResponseDto> {
    const channel = await this.access.channelFor(principal, dto.brandKey);
    const upload = await this.store.uploads.find(dto.imageUrl);
    if (!upload || upload.kind !== 'image' || upload.channelKey !== channel.key) {
      throw fail('BAD_URL', `imageUrl must be a URL returned by POST /api/agent/upload/image with imageType=plain on ${channel.key}`);
    }
    if (upload.imageType !== 'plain') throw fail('BAD_URL', 'imageUrl was uploaded with imageType=rich; upload the image with imageType=plain to send it as a photo');
    const text = formatAttachmentLine({ type: 'photo', url: dto.imageUrl });
    return this.deliver(channel, dto.userKey, { op: 'send_image', kind: 'image', text, bubbleText: null }, (serialNumber) =>
      this.messenger.writeImage({ senderKey: channel.senderKey, userKey: dto.userKey, serialNumber, imageUrl: dto.imageUrl }),
    );
  }

  /** One text bubble to a customer of a channel the caller was already allowed to use. */
  deliverText(channel: ChannelRecord, userKey: string, text: string): Promise<SendResponseDto> {
    return this.turns.run(channel.key, userKey, () => this.deliverTextInTurn(channel, userKey, text));
  }

  /** As deliverText, for a caller that holds the customer's turn already (an end's greeting). */
  deliverTextInTurn(channel: ChannelRecord, userKey: string, text: string): Promise<SendResponseDto> {
    return this.deliverInTurn(channel, userKey, { op: 'send_text', kind: 'text', text, bubbleText: text }, (serialNumber) =>
      this.messenger.writeText({ senderKey: channel.senderKey, userKey, serialNumber, message: text }),
    );
  }

  deliver(channel: ChannelRecord, userKey: string, bubble: BubbleSpec, send: (serial: string) => Promise<UpstreamResult>): Promise<SendResponseDto> {
    return this.turns.run(channel.key, userKey, () => this.deliverInTurn(channel, userKey, bubble, send));
  }

  private async deliverInTurn(channel: ChannelRecord, userKey: string, bubble: BubbleSpec, send: (serial: string) => Promise<UpstreamResult>): Promise<SendResponseDto> {
    // the room is read once: billing charges its consultation, and the journal item belongs to it
    const room = await this.store.journal.getRoom(channel.key, userKey);
    this.serials.noteSession(room?.sessionId);
    const serial = await this.serials.next();
    const answer: SendResponseDto = { ok: true, code: '0', message: null, serial };
    // an earlier attempt of this keyed send, cut off before its answer was kept, delivered and journaled it
    if (await this.serials.journaledBefore(channel.key, serial)) return answer;
    const consent = bubble.kind === 'consent' ? await this.consentOnce.claim(channel, userKey, room, serial) : undefined;
    if (consent && !('release' in consent)) return { ok: false, code: consent.code, message: consent.message, serial };
    let charge: Charge | undefined;
    let result: UpstreamResult;
    let earlier: EarlierDelivery | undefined;
    try {
      charge = await this.billing.chargeInRoom(channel, userKey, bubble.op, room);
      const answered = await send(serial);
      earlier = this.serials.earlierDelivery(serial, answered);
      result = earlier ? DELIVERED : answered;
    } catch (error) {
      await Promise.all([charge?.release(), consent?.release()]);
      throw error;
    }
    if (!isUpstreamSuccess(result.code)) {
      await Promise.all([charge.release(), consent?.release()]);
      return { ok: false, code: result.code, message: result.message ?? 'the messenger rejected the send', serial };
    }
    // a retry finding its bubble delivered by the earlier attempt: in the consultation of then, which may have ended
    const deliveredIn = earlier?.sessionId ?? room?.sessionId ?? '';
    const elsewhere = earlier !== undefined && !(room?.state === 'in_progress' && room.sessionId === deliveredIn);
    // a consent bubble delivered in an earlier consultation leaves the customer's current one free to request consent
    if (elsewhere) await consent?.release();
    const keepCharge = elsewhere
      ? async () => {
          await charge.release();
          await this.billing.chargeDelivered(channel, userKey, bubble.op, deliveredIn);
        }
      : () => charge.keep();
    const item = {
      sessionId: deliveredIn,
      text: bubble.text,
      serial,
      bubbles: [{ serial, kind: bubble.kind, text: bubble.bubbleText, groupIndex: 0 }],
      timestampUnixMs: this.clock.now(),
    };
    try {
      await this.accepted.record(serial, [keepCharge, () => this.journal.appendAgentSend(channel.key, userKey, item)]);
    } catch (error) {
      if (error instanceof SendNotJournaledError) error.answer = answer;
      throw error;
    }
    return answer;
  }
}
