import { Request, RequestHandler, Response } from 'express';
import { SandboxDeps } from './deps';

/** GET /texts/:name: the whole text of a long customer message (no partner key, like the file host). */
export function longTextHost(deps: SandboxDeps): RequestHandler {
  return (req: Request, res: Response) => {
    const text = deps.state.longTexts.get(String(req.params['name']));
    if (text === undefined) {
      res.status(404).json({ ok: false, code: 'NOT_FOUND', message: 'no such file' });
      return;
    }
    res.type('text/plain; charset=utf-8').send(text);
  };
}
