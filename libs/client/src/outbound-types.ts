import type { Envelope } from './account-types';

/** The REST JSON of the service, field for field (GET /api/docs-json): sends, session actions, deletes and uploads. */

export interface SendResponse extends Envelope {
  serial?: string;
}

export interface SessionActionResponse extends Envelope {
  sessionId?: string | null;
  serial?: string;
}

export interface DeleteResponse extends Envelope {
  serial?: string;
}

export interface AttachmentResult {
  kind: string;
  /** the file part an image or file bubble came from */
  file?: string;
  ok: boolean;
  code: string;
  serial: string;
  message?: string | null;
}

export interface SendAttachmentsResponse {
  ok: boolean;
  results: AttachmentResult[];
}

export interface UploadImageResponse extends Envelope {
  url: string;
  imageType: 'rich' | 'plain';
  name?: string;
  size?: number;
}

export interface UploadFileResponse extends Envelope {
  url: string;
  fileType: 'file' | 'audio' | 'video';
  name?: string;
  size?: number;
}
