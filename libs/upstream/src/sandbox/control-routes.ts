import express, { Request, Response, Router } from 'express';
import { isHttpUrl } from './button-rules';
import { bodyOf, channelOf, optionalText, userKeyOf } from './control-input';
import { SandboxInfo } from './control-types';
import { SandboxDeps, sweptBefore } from './deps';
import { ControlError, wrap } from './http-errors';
import { jsonBody } from './json-body';
import { channelRoutes } from './channel-routes';
import { ClockNotKeptError } from './clock-file';
import { customerRoutes } from './customer-routes';
import { viewOf } from './chat-view';
import { FAULT_CODES } from './partner-faults';
import type { CodeValue } from '../result-codes';

/** The sandbox-only control API under /_sandbox (X-Partner-Key checked before). */
export function controlRoutes(deps: SandboxDeps): Router {
  const r = express.Router();
  const { state, clock, engine, dispatcher } = deps;
  r.use(jsonBody());

  r.put('/partner', (req: Request, res: Response) => {
    const callbackUrl = optionalText(bodyOf(req), 'callbackUrl', 2000);
    if (!callbackUrl || !isHttpUrl(callbackUrl)) {
      throw new ControlError(400, 'BAD_REQUEST', 'callbackUrl must be an http or https URL');
    }
    state.callbackUrl = callbackUrl;
    res.json({ ok: true });
  });

  r.use('/channels', channelRoutes(deps));

  r.post('/faults', (req: Request, res: Response) => {
    const body = bodyOf(req);
    const { call, code } = body;
    const times = body['times'] ?? 1;
    if (typeof call !== 'string' || !deps.faults.paths.includes(call)) {
      throw new ControlError(400, 'BAD_REQUEST', `call must be a partner call: ${deps.faults.paths.join(', ')}`);
    }
    if (!FAULT_CODES.includes(code as CodeValue)) {
      throw new ControlError(400, 'BAD_REQUEST', `code must be one of the messenger's failures no rule of the sandbox gives: ${FAULT_CODES.join(', ')}`);
    }
    if (typeof times !== 'number' || !Number.isInteger(times) || times < 1 || times > 100) {
      throw new ControlError(400, 'BAD_REQUEST', 'times must be a whole number from 1 to 100');
    }
    deps.faults.add(call, code as CodeValue, times);
    res.json({ ok: true });
  });

  r.delete('/faults', (_req: Request, res: Response) => {
    deps.faults.clear();
    res.json({ ok: true });
  });

  r.get('/info', (_req: Request, res: Response) => {
    const info: SandboxInfo = { sandbox: true, now: clock.now(), bootId: deps.bootId };
    res.json(info);
  });

  r.get('/clock', (_req: Request, res: Response) => {
    res.json({ now: clock.now() });
  });

  r.post(
    '/clock',
    wrap(async (req, res) => {
      const seconds = bodyOf(req)['advanceSeconds'];
      if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
        throw new ControlError(400, 'BAD_REQUEST', 'advanceSeconds must be a number >= 0');
      }
      const before = await sweptBefore(res);
      await deps.advanceClock(seconds * 1000).catch((err: unknown) => {
        throw err instanceof ClockNotKeptError ? new ControlError(503, 'STATE_NOT_WRITABLE', err.message) : err;
      });
      const records = await dispatcher.enqueueAll(engine.sweep());
      res.json({ ok: true, now: clock.now(), callbacks: [...before, ...records] });
    }),
  );

  r.get('/customers/:userKey/chat', (req: Request, res: Response) => {
    const userKey = userKeyOf(req);
    const channel = channelOf(deps, req.query['senderKey']);
    const c = channel.customers.get(userKey);
    res.json({ ok: true, bubbles: c ? c.bubbles.map(viewOf) : [] });
  });

  r.use('/customers/:userKey', customerRoutes(deps));
  return r;
}
