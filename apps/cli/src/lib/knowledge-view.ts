import { constants } from 'node:os';

/** The viewer's default port: beside the gateway's query API (8790), so both can run. */
export const DEFAULT_VIEW_PORT = 8791;

/** The viewer listens on the loopback address; both names reach it, with its token, which the page trades for a cookie. */
export function viewUrls(port: number, token: string): { url: string; localhostUrl: string } {
  return { url: `http://127.0.0.1:${port}/?token=${token}`, localhostUrl: `http://localhost:${port}/?token=${token}` };
}

/** A signal that repeats within this long of the first is the same stop (the terminal's and the launcher's copy). */
const REPEAT_MS = 1000;

/**
 * Resolves at the first Ctrl-C (SIGINT), SIGTERM or SIGHUP; the launcher forwards them to the tool. A Ctrl-C
 * reaches the tool twice at once (from the terminal and from the launcher): the copy is ignored so the stop can
 * finish; a signal sent again later ends the process at once.
 */
export function untilStopped(): Promise<NodeJS.Signals> {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  return new Promise((done) => {
    let firstAt: number | undefined;
    const onSignal = (signal: NodeJS.Signals): void => {
      if (firstAt === undefined) {
        firstAt = Date.now();
        done(signal);
      } else if (Date.now() - firstAt > REPEAT_MS) {
        process.exit(128 + (constants.signals[signal] ?? 0));
      }
    };
    for (const s of signals) process.on(s, onSignal);
  });
}
