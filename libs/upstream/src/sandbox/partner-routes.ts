import http from 'node:http';
import express, { Request, Response, Router } from 'express';
import { Code } from '../result-codes';
import { BAD_KEY, Rejection, partnerErrorBody } from './http-errors';
import { JSON_LIMIT_BYTES, isJsonRequest, jsonBody, readJsonBody } from './json-body';
import { PartnerCall } from './partner-calls';
import { sameSecret } from '../same-secret';

/** The JSON partner calls as express routes (mounted at the root; paths start with /v1). */
export function partnerRouter(calls: ReadonlyMap<string, PartnerCall>): Router {
  const r = express.Router();
  const json = jsonBody();
  for (const [path, call] of calls) {
    r.post(path, json, (req: Request, res: Response) => {
      res.json(call(req.body));
    });
  }
  return r;
}

/**
 * The hot path: `POST /v1/<call>` with a JSON body is answered straight from node:http, without express
 * (its router and body parsing cost most of the time of a send). Same checks and answers as the routes;
 * anything else (other paths, queries, non-JSON bodies) returns false and goes to express.
 */
export function partnerFastLane(
  calls: ReadonlyMap<string, PartnerCall>,
  o: { partnerKey: string; beforeCall: () => void },
): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  return (req, res) => {
    if (req.method !== 'POST' || req.url === undefined) return false;
    const call = calls.get(req.url);
    if (!call || !isJsonRequest(req)) return false;
    if (!sameSecret(req.headers['x-partner-key'], o.partnerKey)) {
      req.resume();
      answer(res, partnerErrorBody(new Rejection(Code.InvalidHubPartner, BAD_KEY)));
      return true;
    }
    readJsonBody(req, JSON_LIMIT_BYTES, (err, body) => {
      if (err) return answer(res, partnerErrorBody(err));
      try {
        o.beforeCall();
        answer(res, call(body));
      } catch (e) {
        answer(res, partnerErrorBody(e));
      }
    });
    return true;
  };
}

function answer(res: http.ServerResponse, body: object): void {
  if (res.headersSent) return;
  const text = JSON.stringify(body);
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}
