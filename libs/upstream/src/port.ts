/**
 * The messenger's partner API as the service uses it. Results carry the upstream code unchanged as a
 * string ('0', '-502', uploads '0000'); business failures are results, transport failures throw
 * UpstreamUnavailableError.
 */
export interface UpstreamResult {
  code: string;
  message: string | null;
  sessionId?: string;
}

export interface UploadImageResult extends UpstreamResult {
  /** messenger-hosted url, present on success */
  url?: string;
}

export interface UploadFileResult extends UpstreamResult {
  url?: string;
  name?: string;
  size?: number;
}

export interface CustomerRef {
  senderKey: string;
  userKey: string;
}

export interface SerialRef extends CustomerRef {
  /** <= 30 characters, unique per sender; a reused one is refused with -504 */
  serialNumber: string;
}

export type ButtonType = 'BK' | 'WL' | 'AL' | 'BT' | 'BF' | 'MD' | 'AC';

/** A button or quick reply as the messenger takes it (snake_case, as on the wire). */
export interface UpstreamButton {
  type: ButtonType | string;
  name: string;
  url_mobile?: string;
  url_pc?: string;
  scheme_android?: string;
  scheme_ios?: string;
  url_target?: string;
  extra?: string;
  chat_event?: string;
  biz_form_key?: string;
}

export type AutoAnswer = 'S1' | 'S2' | 'S3' | 'S4' | 'S5';

export type UploadData = Buffer | string;

export interface MessengerPort {
  writeText(r: SerialRef & { message: string }): Promise<UpstreamResult>;
  /** message_type LI: text with link buttons (<= 5), quick replies (<= 10) and an optional auto answer */
  writeLinks(
    r: SerialRef & { message: string; links?: UpstreamButton[]; quickReplies?: UpstreamButton[]; autoAnswer?: AutoAnswer },
  ): Promise<UpstreamResult>;
  /** imageUrl must come from uploadImage with imageType 'plain' */
  writeImage(r: SerialRef & { imageUrl: string }): Promise<UpstreamResult>;
  /** fileUrl must come from uploadFile (FI: file or video, AU: audio) */
  writeFile(
    r: SerialRef & { fileUrl: string; fileName: string; fileSize: number; messageType: 'FI' | 'AU' },
  ): Promise<UpstreamResult>;
  /** envelope: the rich envelope object (chat_bubble_type, message, attachment, ...); ids are filled in */
  sendRich(r: SerialRef & { envelope: Record<string, unknown> }): Promise<UpstreamResult>;
  end(r: CustomerRef): Promise<UpstreamResult>;
  endWithBot(r: CustomerRef & { botEvent?: string }): Promise<UpstreamResult>;
  block(r: CustomerRef): Promise<UpstreamResult>;
  unblock(r: CustomerRef): Promise<UpstreamResult>;
  activateChat(senderKey: string): Promise<UpstreamResult>;
  deactivateChat(senderKey: string): Promise<UpstreamResult>;
  /** data: the bytes, or a file path (streamed from disk) */
  uploadImage(r: {
    senderKey: string;
    data: UploadData;
    fileName: string;
    imageType: 'rich' | 'plain';
  }): Promise<UploadImageResult>;
  uploadFile(r: {
    senderKey: string;
    data: UploadData;
    fileName: string;
    fileType: 'file' | 'audio' | 'video';
  }): Promise<UploadFileResult>;
  /** serialNumber: the serial of the sent bubble to delete */
  deleteMessage(r: SerialRef): Promise<UpstreamResult>;
  /** sends the personal-info consent bubble; serialNumber is the new bubble's serial */
  requestConsent(r: SerialRef): Promise<UpstreamResult>;
  /**
   * The whole text of a long customer message (the `.txt` at `attachment.url` of a `/message` callback). Fetched
   * only from the messenger's own host (the partner API's origin), within LONG_TEXT_TIMEOUT_MS and at most
   * LONG_TEXT_MAX_BYTES; anything else throws UpstreamUnavailableError.
   */
  fetchLongText(url: string): Promise<string>;
}
