import { type AddressInfo, type Server, type Socket, connect, createServer } from 'node:net';

/** A TCP relay to a real server whose link a test can freeze, cut and restore (one port throughout). */
export class TcpProxy {
  private readonly links = new Set<[Socket, Socket]>();
  private readonly frozen: Socket[] = [];
  private server: Server | undefined;

  private constructor(
    private readonly target: { host: string; port: number },
    private port: number,
  ) {}

  static async start(target: { host: string; port: number }): Promise<TcpProxy> {
    const proxy = new TcpProxy(target, 0);
    await proxy.open();
    return proxy;
  }

  /** The URL of `databaseUrl` with its host and port replaced by the proxy's. */
  urlThrough(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** Listens again (on the same port once it has one). */
  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      const link: [Socket, Socket] = [client, upstream];
      this.links.add(link);
      client.pipe(upstream).pipe(client);
      const drop = () => {
        this.links.delete(link);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
  }

  /** The links open now carry nothing more either way and stay open, as over a dead network path; new ones work. */
  freeze(): void {
    for (const [client, upstream] of this.links) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
      this.frozen.push(client, upstream);
    }
    this.links.clear();
  }

  /** Resets every link and stops listening: connecting is refused until `open`. */
  async close(): Promise<void> {
    for (const [client, upstream] of this.links) {
      client.resetAndDestroy();
      upstream.destroy();
    }
    this.links.clear();
    for (const socket of this.frozen.splice(0)) socket.destroy();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A server that accepts connections and never says a word, as a hung database or a wrong port can. */
export async function startSilentListener(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
