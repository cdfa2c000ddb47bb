import type { NextFunction, Request, RequestHandler, Response } from 'express';
import express from 'express';
import { errorReply } from '../errors/envelope';
import { toErrorReply } from '../errors/to-error-reply';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth';

/**
 * JSON body parsing whose failures (malformed JSON, oversized or too deeply nested bodies) answer in the
 * envelope at once, before routing, instead of reaching Express's HTML error page or recursive code.
 */
export function jsonBodyParser(limit: string): RequestHandler {
  const parse = express.json({ limit, strict: true });
  return (req: Request, res: Response, next: NextFunction) => {
    parse(req, res, (error?: unknown) => {
      const reply =
        error !== undefined && error !== null
          ? (toErrorReply(error) ?? errorReply('BAD_REQUEST', 'the request body could not be read'))
          : nestsDeeperThan(req.body, MAX_JSON_DEPTH)
            ? errorReply('BAD_REQUEST', `the request body nests deeper than ${MAX_JSON_DEPTH} levels`)
            : undefined;
      if (!reply) return next();
      res.status(reply.status).json(reply.body);
    });
  };
}
