import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import multer from 'multer';
import { UploadKind } from './button-rules';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_FILE_BYTES = 300 * 1024 * 1024;
export const MAX_AUDIO_BYTES = 10 * 1024 * 1024;

export interface StoredUpload {
  /** name under /files/ */
  fileName: string;
  path: string;
  kind: UploadKind;
  /** the channel it was uploaded for: only that channel's sends may use it */
  senderKey: string;
  mime: string;
  size: number;
  originalName: string;
  url: string;
}

const MIME_BY_EXT: Readonly<Record<string, string>> = {
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
  '.mp4': 'video/mp4',
  '.zip': 'application/zip',
};

/** The name an upload is stored under: a random id and the extension of the name it was uploaded with. */
export const UPLOAD_FILE_NAME = /^[0-9a-f]{24}(?:\.[a-z0-9]{1,8})?$/;

/** An upload as kept across a restart: its url and path follow from where the sandbox serves and keeps it. */
export type KeptUpload = Omit<StoredUpload, 'path' | 'url'>;

/**
 * Files uploaded to the sandbox messenger: stored in a temp dir (os.tmpdir()/brandwire-sandbox-*) removed on
 * close(), or in a folder that outlives the sandbox (`keepIn`); served under `<sandboxUrl>/files/<name>`,
 * remembered with what they were uploaded as.
 */
export class UploadStore {
  private readonly byUrl = new Map<string, StoredUpload>();
  private readonly byFileName = new Map<string, StoredUpload>();
  /** set once the server listens */
  publicBase = '';

  private constructor(
    readonly dir: string,
    private readonly kept: boolean,
  ) {}

  static async create(keepIn?: string): Promise<UploadStore> {
    if (keepIn === undefined) return new UploadStore(await mkdtemp(join(tmpdir(), 'brandwire-sandbox-')), false);
    await mkdir(keepIn, { recursive: true, mode: 0o700 });
    return new UploadStore(keepIn, true);
  }

  /** Multer middleware streaming one file part `field` to disk, at most `maxBytes`. */
  multipart(field: string, maxBytes: number): ReturnType<multer.Multer['single']> {
    const storage = multer.diskStorage({
      destination: this.dir,
      filename: (_req, file, cb) => cb(null, randomId() + safeExt(file.originalname)),
    });
    return multer({
      storage,
      defParamCharset: 'utf8',
      limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 64 * 1024, parts: 30 },
    }).single(field);
  }

  register(file: Express.Multer.File, kind: UploadKind, mime: string, senderKey: string): StoredUpload {
    return this.remember({ fileName: file.filename, kind, senderKey, mime, size: file.size, originalName: file.originalname });
  }

  /** Every upload, as kept across a restart. */
  list(): KeptUpload[] {
    return [...this.byFileName.values()].map(({ path: _path, url: _url, ...kept }) => kept);
  }

  /** Takes back the uploads of an earlier run whose files are still there (once `publicBase` is set). */
  adopt(uploads: readonly KeptUpload[]): void {
    for (const upload of uploads) {
      if (existsSync(join(this.dir, upload.fileName))) this.remember(upload);
    }
  }

  private remember(kept: KeptUpload): StoredUpload {
    const upload: StoredUpload = { ...kept, path: join(this.dir, kept.fileName), url: `${this.publicBase}/files/${kept.fileName}` };
    this.byUrl.set(upload.url, upload);
    this.byFileName.set(upload.fileName, upload);
    return upload;
  }

  /**
   * What `url` was uploaded as, for a send on `senderKey`; undefined when it is not one of the messenger's uploads
   * or was uploaded for another sender (the messenger refuses both alike, and says nothing of other channels).
   */
  kindOf(url: string, senderKey: string): UploadKind | undefined {
    const upload = this.byUrl.get(url);
    return upload?.senderKey === senderKey ? upload.kind : undefined;
  }

  find(fileName: string): StoredUpload | undefined {
    return this.byFileName.get(fileName);
  }

  async discard(path: string | undefined): Promise<void> {
    if (path) await rm(path, { force: true });
  }

  async close(): Promise<void> {
    this.byUrl.clear();
    this.byFileName.clear();
    if (!this.kept) await rm(this.dir, { recursive: true, force: true });
  }
}

export function mimeOfFile(name: string): string {
  return MIME_BY_EXT[extname(name).toLowerCase()] ?? 'application/octet-stream';
}

export async function readHead(path: string, bytes = 16): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

function randomId(): string {
  return randomBytes(12).toString('hex');
}

function safeExt(name: string): string {
  const ext = extname(name).toLowerCase();
  return /^\.[a-z0-9]{1,8}$/.test(ext) ? ext : '';
}
