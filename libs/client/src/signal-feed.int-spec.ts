import { type AddressInfo, type Server, type Socket, connect, createServer } from 'node:net';
import { type SignalEvent, followSignals } from './index';
import { LiveService, TEST_TOKENS } from './testing';

/** A TCP relay to the service whose open connections the test can cut (a dropped network path); new ones pass. */
async function startRelay(target: URL): Promise<{ url: string; cut(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const service = connect(Number(target.port), target.hostname);
    for (const socket of [client, service]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket)).on('error', () => undefined);
    }
    client.pipe(service).pipe(client);
    client.on('close', () => service.destroy());
    service.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut: () => sockets.forEach((socket) => socket.destroy()),
    close: () => new Promise<void>((resolve) => (sockets.forEach((socket) => socket.destroy()), server.close(() => resolve()))),
  };
}

describe('following the signals from now', () => {
  let live: LiveService;

  beforeAll(async () => {
    live = await LiveService.start();
  });
  afterAll(async () => {
    await live.stop();
  });

  it('resumes a stream broken before its first signal at the end it started at, missing nothing written meanwhile', async () => {
    await live.customerWrites('before', 'written before the feed started');
    const relay = await startRelay(new URL(live.url));
    const stop = new AbortController();
    const events: SignalEvent[] = [];
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    let broken!: () => void;
    const broke = new Promise<void>((resolve) => (broken = resolve));
    const feed = followSignals({
      endpoint: relay.url,
      token: TEST_TOKENS.reader,
      brand: 'acme-kakao',
      after: 'now',
      signal: stop.signal,
      onOpen: () => opened(),
      onDisconnect: () => broken(),
      onEvent: async (event) => void events.push(event),
    });
    try {
      await open;
      relay.cut();
      await broke;
      // written while the feed waits to open its stream again
      await live.customerWrites('meanwhile', 'written while the stream was down');
      const deadline = Date.now() + 10_000;
      while (events.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(events.map((e) => [e.kind, e.signal['userKey']])).toEqual([
        ['reference', 'meanwhile'],
        ['message', 'meanwhile'],
      ]);
    } finally {
      stop.abort();
      await feed;
      await relay.close();
    }
  });
});
