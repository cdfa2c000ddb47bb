import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { type ErrorReply, errorReply } from '../errors/envelope';
import { toErrorReply } from '../errors/to-error-reply';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';
import { describeJsonDefect, jsonDefect } from './json-content';

function carriesBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

/**
 * JSON body parsing whose failures (malformed JSON, oversized or too deeply nested bodies, a body that is
 * neither JSON nor a multipart upload) answer in the envelope at once, before routing, instead of reaching
 * Express's HTML error page, recursive code, or validation that would call every field missing.
 */
/** The OAuth 2.0 device flow's endpoints, which RFC 8628 has clients call with form-encoded bodies (JSON is taken too). */
const FORM_ROUTES = new Set(['/api/auth/device/code', '/api/auth/device/token']);

/** The messenger's callbacks: they read the fields they know and pass its free-form `reference` on as it came. */
const CALLBACK_PATHS = /^\/upstream\//;

/**
 * A `__proto__`, `constructor` or `prototype` key, anywhere, is refused as the validation refuses an unknown
 * field; a string that is not well-formed Unicode is refused naming its field. Not in the messenger's callbacks,
 * where refusing would lose a customer's message for what a partner sent.
 */
function jsonDefectReply(req: Request): ErrorReply | undefined {
  if (CALLBACK_PATHS.test(req.path)) return undefined;
  const defect = jsonDefect(req.body);
  return defect === undefined ? undefined : errorReply('BAD_REQUEST', describeJsonDefect(defect));
}

export function jsonBodyParser(limit: string): RequestHandler {
  const parse = express.json({ limit, strict: true, type: ['application/json', 'application/*+json'] });
  const parseForm = express.urlencoded({ limit, extended: false, parameterLimit: 20 });
  return (req: Request, res: Response, next: NextFunction) => {
    if (FORM_ROUTES.has(req.path) && req.is('application/x-www-form-urlencoded')) {
      parseForm(req, res, next);
      return;
    }
    if (carriesBody(req) && !req.is(['json', '+json', 'multipart/form-data'])) {
      const given = req.headers['content-type'] ?? 'no Content-Type';
      const wanted = FORM_ROUTES.has(req.path)
        ? 'form-encoded (Content-Type: application/x-www-form-urlencoded) or JSON (Content-Type: application/json)'
        : 'JSON (Content-Type: application/json), or multipart/form-data for uploads';
      const reply = errorReply('UNSUPPORTED_MEDIA_TYPE', `the request body must be ${wanted}; got ${given}`);
      res.status(reply.status).json(reply.body);
      return;
    }
    parse(req, res, (error?: unknown) => {
      const reply =
        error !== undefined && error !== null
          ? (toErrorReply(error) ?? errorReply('BAD_REQUEST', 'the request body could not be read'))
          : Array.isArray(req.body)
            ? errorReply('BAD_REQUEST', 'the request body must be a JSON object')
            : nestsDeeperThan(req.body, MAX_JSON_DEPTH)
              ? errorReply('BAD_REQUEST', `the request body nests deeper than ${MAX_JSON_DEPTH} levels`)
              : jsonDefectReply(req);
      if (!reply) return next();
      res.status(reply.status).json(reply.body);
    });
  };
}
