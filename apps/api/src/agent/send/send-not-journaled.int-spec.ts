import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sqliteFileHolder } from '@brandwire/store/testing';
import { ServiceHarness } from '../../test-support/service-harness';

interface SendReply {
  ok: boolean;
  code: string;
  message: string | null;
  serial?: string;
}

/**
 * A messenger that accepts every text, and runs `onWrite` before it answers one: the moment between the
 * messenger's acceptance and the service's journal write.
 */
async function startAcceptingMessenger(): Promise<{ url: string; writes: string[]; onWrite: (hook: (() => void) | undefined) => void; close(): Promise<void> }> {
  const writes: string[] = [];
  let hook: (() => void) | undefined;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      if (req.url === '/v1/write') {
        writes.push(String((JSON.parse(raw) as { message?: string }).message));
        hook?.();
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 0 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    writes,
    onWrite: (next) => (hook = next),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('a send the messenger accepted while the database does not take its journal item', () => {
  let messenger: Awaited<ReturnType<typeof startAcceptingMessenger>>;
  let h: ServiceHarness;

  beforeAll(async () => {
    messenger = await startAcceptingMessenger();
    h = await ServiceHarness.start({ env: { UPSTREAM_URL: messenger.url, UPSTREAM_PARTNER_KEY: 'k' } });
  });
  afterAll(async () => {
    await h.stop();
    await messenger.close();
  });

  it('is answered 503 naming its serial, journaled once the database answers, and never sent twice for its Idempotency-Key', async () => {
    // another writer holds the SQLite file from the messenger's acceptance on, longer than the service waits for it
    const holder = sqliteFileHolder(h.dataDir);
    messenger.onWrite(() => holder.hold());
    const send = () =>
      h.request<SendReply>('POST', '/api/agent/send', { headers: { 'idempotency-key': 'held-1' }, body: { brandKey: 'acme-kakao', userKey: 'held', text: 'sent while the journal is held' } });
    try {
      const first = await send();
      messenger.onWrite(undefined);
      const serial = /serial (bw-\d+-\w+)/.exec(first.body.message ?? '')?.[1];
      expect([first.status, first.body.code, serial]).toEqual([503, 'STORAGE_UNAVAILABLE', expect.stringMatching(/^bw-/)]);
      expect(first.body.message).toContain('do not send it again');

      // a retry while the database is still held cannot even read the key: refused, and not sent
      const meanwhile = await send();
      expect([meanwhile.status, meanwhile.body.code]).toEqual([503, 'STORAGE_UNAVAILABLE']);
      holder.release();

      const journaled = async () => (await h.get<{ messages: Array<{ kind: string; serial?: string }> }>('/api/agent/rooms/held/messages?brand=acme-kakao')).body.messages;
      for (let i = 0; i < 100 && !(await journaled()).some((m) => m.serial === serial); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await journaled()).map((m) => [m.kind, m.serial])).toEqual([['agent', serial]]);

      const replay = await send();
      expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body]).toEqual([200, 'true', { ok: true, code: '0', message: null, serial }]);
      expect(messenger.writes).toEqual(['sent while the journal is held']);
    } finally {
      holder.close();
    }
  });
});
