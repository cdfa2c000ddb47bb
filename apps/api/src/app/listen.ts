import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Fixable {
  cause: string;
  variable: 'PORT' | 'HOST';
}

/** The listen failures a person fixes with the configuration: what to tell them, and which variable to change. */
const FIXABLE = new Map<string, Fixable>([
  ['EADDRINUSE', { cause: 'the address is in use', variable: 'PORT' }],
  ['EACCES', { cause: 'this user may not use the port', variable: 'PORT' }],
  ['EADDRNOTAVAIL', { cause: "the address is not one of this machine's", variable: 'HOST' }],
  ['ENOTFOUND', { cause: 'no such host name', variable: 'HOST' }],
]);

/** The service could not listen for a reason its configuration can fix; the message is one line naming the variable. */
export class ListenError extends Error {
  override readonly name = 'ListenError';

  constructor(
    address: string,
    /** the system's error code, e.g. EADDRINUSE */
    readonly code: string,
    { cause, variable }: Fixable,
  ) {
    super(`cannot listen on ${address}: ${cause} (${variable})`);
  }
}

/** `host:port`, with an IPv6 address in brackets. */
export function hostAndPort(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Listens on the server; a failure the configuration can fix becomes a ListenError, any other stays as it is. */
export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => {
      const fixable = error.code === undefined ? undefined : FIXABLE.get(error.code);
      reject(fixable ? new ListenError(hostAndPort(host, port), error.code as string, fixable) : error);
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve(server.address() as AddressInfo);
    });
  });
}
