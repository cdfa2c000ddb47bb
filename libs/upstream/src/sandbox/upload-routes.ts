import express, { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import multer from 'multer';
import { imageMediaType } from '@brandwire/domain';
import { Code, CodeValue, UPLOAD_OK } from '../result-codes';
import { UploadKind, isObj } from './button-rules';
import { SandboxDeps } from './deps';
import { Rejection, wrap } from './http-errors';
import { MAX_AUDIO_BYTES, MAX_FILE_BYTES, MAX_IMAGE_BYTES, mimeOfFile, readHead } from './uploads';

const FILE_TYPES = ['file', 'audio', 'video'] as const;

/** Image and file uploads (multipart, streamed to disk) and the file host serving them. */
export function uploadRoutes(deps: SandboxDeps): Router {
  const r = express.Router();
  const { uploads, state } = deps;

  /** Parses the multipart body; a too large file is refused with `tooLarge`. */
  function multipart(field: string, maxBytes: number, tooLarge: CodeValue): RequestHandler {
    const parse = uploads.multipart(field, maxBytes);
    return (req: Request, res: Response, next: NextFunction) => {
      parse(req, res, (err?: unknown) => {
        if (err === undefined || err === null) return next();
        if (err instanceof multer.MulterError) {
          if (err.code === 'LIMIT_FILE_SIZE') {
            return next(new Rejection(tooLarge, `${field} is larger than ${maxBytes / 1024 / 1024} MB`));
          }
          return next(new Rejection(Code.InvalidJson, `bad multipart body (${err.code}${err.field ? ` on ${err.field}` : ''})`));
        }
        next(new Rejection(Code.InvalidJson, 'unreadable multipart body'));
      });
    };
  }

  /** Checks sender and parts; on any refusal the stored file is removed. */
  async function accepted<T>(
    req: Request,
    check: (file: Express.Multer.File, fields: Record<string, unknown>) => Promise<T>,
  ): Promise<{ file: Express.Multer.File; senderKey: string; value: T }> {
    const file = req.file;
    try {
      const fields: unknown = req.body;
      const f = isObj(fields) ? fields : {};
      const senderKey = f['sender_key'];
      if (typeof senderKey !== 'string') throw new Rejection(Code.InvalidJson, 'sender_key is required');
      if (!state.channels.has(senderKey)) throw new Rejection(Code.InvalidSender, 'unknown sender_key');
      if (!file) throw new Rejection(Code.InvalidJson, 'the file part is missing');
      return { file, senderKey, value: await check(file, f) };
    } catch (err) {
      await uploads.discard(file?.path);
      throw err;
    }
  }

  r.post(
    '/upload/image',
    multipart('image', MAX_IMAGE_BYTES, Code.InvalidImage),
    wrap(async (req, res) => {
      const { file, senderKey, value } = await accepted(req, async (f, fields) => {
        const type = fields['image_type'];
        if (type !== undefined && type !== 'rich' && type !== 'plain') {
          throw new Rejection(Code.InvalidJson, "image_type must be 'rich' or 'plain'");
        }
        const mime = imageMediaType(await readHead(f.path));
        if (!mime) throw new Rejection(Code.InvalidImage, 'the image is not a jpg, png or gif');
        const kind: UploadKind = type === 'rich' ? 'rich' : 'plain';
        return { kind, mime };
      });
      const upload = uploads.register(file, value.kind, value.mime, senderKey);
      res.json({ code: UPLOAD_OK, image: upload.url });
    }),
  );

  r.post(
    '/upload/file',
    multipart('file', MAX_FILE_BYTES, Code.InvalidMessage),
    wrap(async (req, res) => {
      const { file, senderKey, value: kind } = await accepted(req, (f, fields) => {
        const type = fields['file_type'];
        if (type !== 'file' && type !== 'audio' && type !== 'video') {
          return Promise.reject(new Rejection(Code.InvalidJson, `file_type must be one of ${FILE_TYPES.join(', ')}`));
        }
        if (type === 'audio' && f.size > MAX_AUDIO_BYTES) {
          return Promise.reject(new Rejection(Code.InvalidMessage, 'an audio file may be at most 10 MB'));
        }
        return Promise.resolve<UploadKind>(type);
      });
      const upload = uploads.register(file, kind, mimeOfFile(file.originalname), senderKey);
      res.json({ code: UPLOAD_OK, file: upload.url, name: upload.originalName, size: upload.size });
    }),
  );

  return r;
}

/** GET /files/:name: the sandbox's file host (no partner key, like a CDN). */
export function fileHost(deps: SandboxDeps): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const upload = deps.uploads.find(String(req.params['name']));
    if (!upload) {
      res.status(404).json({ ok: false, code: 'NOT_FOUND', message: 'no such file' });
      return;
    }
    res.sendFile(upload.path, { headers: { 'Content-Type': upload.mime }, dotfiles: 'allow' }, (err?: Error) => {
      if (err && !res.headersSent) next(err);
    });
  };
}
