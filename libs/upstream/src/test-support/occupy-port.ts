import net from 'node:net';

/** A server holding `port` (0: any free one) on 127.0.0.1, so that nothing else can listen there until closed. */
export async function occupyPort(port: number): Promise<{ port: number; close: () => void }> {
  const blocker = net.createServer();
  await new Promise<void>((resolve, reject) => blocker.once('error', reject).listen(port, '127.0.0.1', resolve));
  return { port: (blocker.address() as net.AddressInfo).port, close: () => blocker.close() };
}
