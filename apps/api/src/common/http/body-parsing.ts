import type { CanActivate, ExecutionContext } from '@nestjs/common';
import type { Request, RequestHandler, Response } from 'express';
import express from 'express';
import { fail } from '../errors/envelope';
import { toErrorReply } from '../errors/to-error-reply';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';
import { describeJsonDefect, jsonDefect } from './json-content';

function carriesBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
}

/** The OAuth 2.0 device flow's endpoints, which RFC 8628 has clients call with form-encoded bodies (JSON is taken too). */
const FORM_ROUTES = new Set(['/api/auth/device/code', '/api/auth/device/token']);
/** The most fields a form-encoded body may have: RFC 8628's requests have three. */
const FORM_FIELDS = 20;

/** The messenger's callbacks: they read the fields they know and pass its free-form `reference` on as it came. */
const CALLBACK_PATHS = /^\/upstream\//;

/**
 * A `__proto__`, `constructor` or `prototype` key, anywhere, is refused as the validation refuses an unknown
 * field; a string that is not well-formed Unicode is refused naming its field. Not in the messenger's callbacks,
 * where refusing would lose a customer's message for what a partner sent.
 */
function jsonDefectRefusal(req: Request): string | undefined {
  if (CALLBACK_PATHS.test(req.path)) return undefined;
  const defect = jsonDefect(req.body);
  return defect === undefined ? undefined : describeJsonDefect(defect);
}

/** Why a parsed JSON body cannot be taken, if it cannot. */
function jsonShapeRefusal(req: Request): string | undefined {
  if (Array.isArray(req.body)) return 'the request body must be a JSON object';
  if (nestsDeeperThan(req.body, MAX_JSON_DEPTH)) return `the request body nests deeper than ${MAX_JSON_DEPTH} levels`;
  return jsonDefectRefusal(req);
}

/** Runs an Express body parser: settles once it has read the body, or with what it failed with. */
function parsedBy(parser: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => parser(req, res, (error?: unknown) => (error === undefined || error === null ? resolve() : reject(error))));
}

/**
 * Reads the JSON body (form-encoded on the pairing routes) once the guards before it let the request in, so that
 * a request refused for its key is never read. Its failures (malformed JSON, oversized or too deeply nested bodies,
 * a body that is neither JSON nor a multipart upload) answer in the envelope, instead of reaching recursive code
 * or validation that would call every field missing. Multipart bodies are left to the upload routes' readers.
 */
export class BodyParsingGuard implements CanActivate {
  private readonly parseJson: RequestHandler;
  private readonly parseForm: RequestHandler;

  constructor(limit: string) {
    this.parseJson = express.json({ limit, strict: true, type: ['application/json', 'application/*+json'] });
    this.parseForm = express.urlencoded({ limit, extended: false, parameterLimit: FORM_FIELDS });
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const res = context.switchToHttp().getResponse<Response>();
    if (FORM_ROUTES.has(req.path) && req.is('application/x-www-form-urlencoded')) {
      await parsedBy(this.parseForm, req, res).catch((error: unknown) => {
        throw (error as { type?: unknown }).type === 'parameters.too.many' ? fail('PAYLOAD_TOO_LARGE', `the form-encoded request body has more than ${FORM_FIELDS} fields`) : error;
      });
      return true;
    }
    if (carriesBody(req) && !req.is(['json', '+json', 'multipart/form-data'])) {
      const given = req.headers['content-type'] ?? 'no Content-Type';
      const wanted = FORM_ROUTES.has(req.path)
        ? 'form-encoded (Content-Type: application/x-www-form-urlencoded) or JSON (Content-Type: application/json)'
        : 'JSON (Content-Type: application/json), or multipart/form-data for uploads';
      throw fail('UNSUPPORTED_MEDIA_TYPE', `the request body must be ${wanted}; got ${given}`);
    }
    await parsedBy(this.parseJson, req, res).catch((error: unknown) => {
      throw toErrorReply(error) ? error : fail('BAD_REQUEST', 'the request body could not be read');
    });
    const refusal = jsonShapeRefusal(req);
    if (refusal !== undefined) throw fail('BAD_REQUEST', refusal);
    return true;
  }
}
