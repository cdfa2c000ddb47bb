import { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import multer from 'multer';
import { Code, CodeValue, exceptionNameOf } from '../result-codes';
import { SandboxControlCode } from './control-types';
import { JSON_LIMIT_BYTES } from './json-body';
import { sameSecret } from '../same-secret';

/** A partner call refused by the messenger: HTTP 200 `{code, message: '<ExceptionName>[: detail]'}`. */
export class Rejection extends Error {
  constructor(
    readonly code: CodeValue,
    detail?: string,
  ) {
    super(detail ? `${exceptionNameOf(code)}: ${detail}` : exceptionNameOf(code));
  }
}

/** A control call refused by the sandbox: `{ok: false, code, message}` with an HTTP status. */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: SandboxControlCode,
    message: string,
  ) {
    super(message);
  }
}

type AsyncHandler = (req: Request, res: Response) => Promise<void>;

/** Express handler for an async function; a rejection goes to the error handler. */
export function wrap(fn: AsyncHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    fn(req, res).catch(next);
  };
}

export function isControlPath(req: Request): boolean {
  return req.originalUrl.startsWith('/_sandbox');
}

/** X-Partner-Key on every partner and control call. */
export function requirePartnerKey(partnerKey: string): RequestHandler {
  return (req, _res, next) => {
    if (sameSecret(req.get('x-partner-key'), partnerKey)) return next();
    next(
      isControlPath(req)
        ? new ControlError(401, 'UNAUTHORIZED', BAD_KEY)
        : new Rejection(Code.InvalidHubPartner, BAD_KEY),
    );
  };
}

export const noRoute: RequestHandler = (req, res) => {
  res.status(404).json({ ok: false, code: 'NO_ROUTE', message: `no route for ${req.method} ${req.path}` });
};

/** body-parser and multer failures, as what they mean to the caller. */
function classify(err: unknown): { status: number; code: CodeValue; control: SandboxControlCode; detail: string } | null {
  if (err instanceof multer.MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE') {
      return { status: 413, code: Code.InvalidImage, control: 'BAD_REQUEST', detail: 'the file is larger than allowed' };
    }
    return { status: 400, code: Code.InvalidJson, control: 'BAD_REQUEST', detail: `bad multipart body (${err.code})` };
  }
  const type = typeof err === 'object' && err !== null ? (err as { type?: unknown }).type : undefined;
  switch (type) {
    case 'entity.too.large':
      return { status: 413, code: Code.InvalidJson, control: 'BAD_REQUEST', detail: `body larger than ${JSON_LIMIT_BYTES / (1024 * 1024)} MB` };
    case 'entity.parse.failed':
      return { status: 400, code: Code.InvalidJson, control: 'BAD_REQUEST', detail: 'body is not valid JSON' };
    case 'encoding.unsupported':
    case 'charset.unsupported':
    case 'request.aborted':
    case 'stream.encoding.set':
      return { status: 400, code: Code.InvalidJson, control: 'BAD_REQUEST', detail: 'unreadable body' };
    default:
      return null;
  }
}

export const BAD_KEY = 'missing or wrong X-Partner-Key';

/** What a partner call answers for an error: HTTP 200 `{code, message}` (never a stack trace). */
export function partnerErrorBody(err: unknown): { code: number; message: string } {
  if (err instanceof Rejection) return { code: err.code, message: err.message };
  const known = classify(err);
  if (known) return { code: known.code, message: `${exceptionNameOf(known.code)}: ${known.detail}` };
  logUnexpected(err);
  return { code: Code.InternalSystemError, message: exceptionNameOf(Code.InternalSystemError) };
}

function logUnexpected(err: unknown): void {
  const detail = err instanceof Error ? err.message : String(err);
  process.stderr.write(`sandbox messenger: unexpected error: ${detail}\n`);
}

/** The one place express errors become responses; never a stack trace. */
export const errorHandler: ErrorRequestHandler = (err: unknown, req, res, _next) => {
  if (res.headersSent) {
    res.end();
    return;
  }
  if (!isControlPath(req)) {
    res.status(200).json(partnerErrorBody(err));
    return;
  }
  if (err instanceof ControlError) {
    res.status(err.status).json({ ok: false, code: err.code, message: err.message });
    return;
  }
  if (err instanceof Rejection) {
    res.status(400).json({ ok: false, code: 'BAD_REQUEST', message: err.message });
    return;
  }
  const known = classify(err);
  if (known) {
    res.status(known.status).json({ ok: false, code: known.control, message: known.detail });
    return;
  }
  logUnexpected(err);
  res.status(500).json({ ok: false, code: 'INTERNAL', message: 'internal error' });
};
