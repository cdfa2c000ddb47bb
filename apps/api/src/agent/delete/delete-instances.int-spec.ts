import { ShiftableClock, type SandboxMessenger, startSandboxMessenger } from '@brandwire/upstream';
import { ServiceHarness } from '../../test-support/service-harness';

interface DeleteReply {
  ok: boolean;
  code: string;
  message?: string;
  serial?: string;
}

describe('POST /api/agent/delete on two instances sharing PostgreSQL and one messenger', () => {
  const partnerKey = 'delete-instances-partner';
  let sandbox: SandboxMessenger;
  let a: ServiceHarness;
  let b: ServiceHarness;

  beforeAll(async () => {
    sandbox = await startSandboxMessenger({ port: 0, partnerKey, clock: new ShiftableClock(), attachmentHost: 'cdn.test.invalid' });
    const upstream = { UPSTREAM_URL: sandbox.url, UPSTREAM_PARTNER_KEY: partnerKey };
    a = await ServiceHarness.start({ dialect: 'postgres', env: upstream });
    b = await ServiceHarness.start({ env: { ...upstream, DATABASE_URL: a.service.runtime.config.databaseUrl ?? '' } });
  });
  afterAll(async () => {
    await b.stop();
    await a.stop();
    await sandbox.close();
  });

  it('answers the same delete sent to both at once with one ok and ALREADY_DELETED, never the messenger refusal', async () => {
    await b.customerWrites('race', { text: 'hi' });
    for (let round = 0; round < 5; round++) {
      const sent = await a.post<{ ok: boolean; serial: string }>('/api/agent/send', { brandKey: 'acme-kakao', userKey: 'race', text: `round ${round}` });
      expect(sent.body.ok).toBe(true);
      const body = { brandKey: 'acme-kakao', userKey: 'race', serial: sent.body.serial };
      const replies = await Promise.all([a, b, a, b].map((instance) => instance.post<DeleteReply>('/api/agent/delete', body)));
      expect(replies.map((r) => `${r.status} ${r.body.code}`).sort()).toEqual(['200 0', '409 ALREADY_DELETED', '409 ALREADY_DELETED', '409 ALREADY_DELETED']);
      // one wording, whichever instance found it deleted and when
      const refusals = replies.filter((r) => r.status === 409).map((r) => r.body.message);
      expect(refusals).toEqual(refusals.map(() => `Message ${sent.body.serial} is already deleted.`));
    }
    const deletedItems = (await a.get<{ messages: Array<{ kind: string }> }>('/api/agent/rooms/race/messages?brand=acme-kakao')).body.messages.filter((m) => m.kind === 'deleted');
    expect(deletedItems).toHaveLength(5);
  });
});
