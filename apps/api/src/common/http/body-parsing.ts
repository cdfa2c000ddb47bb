import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { errorReply } from '../errors/envelope';
import { toErrorReply } from '../errors/to-error-reply';

/**
 * JSON body parsing whose failures (malformed JSON, oversized bodies) answer in the envelope at once,
 * before routing, instead of reaching Express's HTML error page.
 */
export function jsonBodyParser(limit: string): RequestHandler {
  const parse = express.json({ limit, strict: true });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (error?: unknown) => {
      if (error === undefined || error === null) return next();
      const reply = toErrorReply(error) ?? errorReply('BAD_REQUEST', 'the request body could not be read');
      res.status(reply.status).json(reply.body);
    });
  };
}
