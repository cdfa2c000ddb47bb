import { type IncomingMessage, type Server, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AnswerLosingProxy {
  url: string;
  /**
   * From now on, the calls whose path matches break their connection once read (undefined: none do), and are
   * carried out a moment later unless `carriedOut` is false.
   */
  loseAnswers(paths: RegExp | undefined, carriedOut?: boolean): void;
  /** From now on, the calls whose path matches are carried out at once and never answered (undefined: none are). */
  holdAnswers(paths: RegExp | undefined): void;
  /** The next call whose path matches is refused as the messenger refuses one it cannot serve (-601), not carried out. */
  refuseNext(paths: RegExp | undefined): void;
  close(): Promise<void>;
}

/**
 * A messenger in front of the sandbox that, when told to, breaks the connection of a call once it has read it and
 * carries the call out a moment later: the caller cannot tell it from a call that never happened, and what the
 * call does (a delivered bubble, an end callback) comes after the caller gave up. Or it carries a call out and
 * never answers it: the caller is left waiting, as when a crash stops it mid-call. Or it refuses one call itself.
 */
export async function startAnswerLosingProxy(target: string): Promise<AnswerLosingProxy> {
  let losing: RegExp | undefined;
  let carryingOut = true;
  let holding: RegExp | undefined;
  let refusing: RegExp | undefined;
  const forward = (req: IncomingMessage, body: Buffer, onAnswer: (answer: IncomingMessage) => void) =>
    request(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, onAnswer).end(body);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (losing?.test(req.url ?? '')) {
        req.socket.destroy();
        if (carryingOut) setTimeout(() => forward(req, body, (answer) => answer.resume()), 300);
        return;
      }
      if (refusing?.test(req.url ?? '')) {
        refusing = undefined;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: -601, message: 'InternalSystemErrorException' }));
        return;
      }
      if (holding?.test(req.url ?? '')) {
        forward(req, body, (answer) => answer.resume());
        return;
      }
      forward(req, body, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    loseAnswers: (paths, carriedOut = true) => {
      losing = paths;
      carryingOut = carriedOut;
    },
    holdAnswers: (paths) => {
      holding = paths;
    },
    refuseNext: (paths) => {
      refusing = paths;
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
