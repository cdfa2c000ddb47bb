/** The viewer's default port: beside the gateway's query API (8790), so both can run. */
export const DEFAULT_VIEW_PORT = 8791;

/** The viewer listens on the loopback address; both names reach it. */
export function viewUrls(port: number): { url: string; localhostUrl: string } {
  return { url: `http://127.0.0.1:${port}/`, localhostUrl: `http://localhost:${port}/` };
}

/** Resolves at the first Ctrl-C (SIGINT), SIGTERM or SIGHUP; the launcher forwards them to the tool. */
export function untilStopped(): Promise<NodeJS.Signals> {
  const signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  return new Promise((done) => {
    const stop = (signal: NodeJS.Signals): void => {
      for (const s of signals) process.removeListener(s, stop);
      done(signal);
    };
    for (const s of signals) process.on(s, stop);
  });
}
