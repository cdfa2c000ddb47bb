import { type TestDatabase, testDatabase } from '@brandwire/store/testing';
import { type RunningService, startService } from '../app/start-service';
import { loadConfig } from '../config/config';
import type { DemoKeys } from './demo-brand';

async function askAs(service: RunningService, path: string, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const reply = await fetch(`${service.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
  return { status: reply.status, body: (await reply.json()) as Record<string, unknown> };
}

describe('several instances started at once, without a seed, on one new PostgreSQL database', () => {
  let database: TestDatabase;
  const services: RunningService[] = [];

  beforeEach(async () => {
    database = await testDatabase('postgres');
  });
  afterEach(async () => {
    await Promise.all(services.splice(0).map((service) => service.close()));
    await database.drop();
  });

  it('make and show one pair of demo keys, from one instance; both work on every instance', async () => {
    const env = { BRANDWIRE_DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl ?? '', LOG_LEVEL: 'silent', HOST: '127.0.0.1', PORT: '0' };
    const shown: DemoKeys[] = [];
    const starts = [1, 2, 3].map(() => startService(loadConfig(env), { onListening: ({ demoKeys }) => demoKeys && shown.push(demoKeys) }));
    const settled = await Promise.allSettled(starts);
    for (const start of settled) if (start.status === 'fulfilled') services.push(start.value);
    expect(settled.map((start) => start.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);

    expect(shown).toHaveLength(1);
    const [keys] = shown as [DemoKeys];
    expect(services.filter((service) => service.demoKeys !== undefined).map((service) => service.demoKeys)).toEqual([keys]);
    for (const service of services) {
      expect(await askAs(service, '/api/agent/me', keys.admin)).toMatchObject({ status: 200, body: { name: 'demo-admin', scope: 'Admin' } });
      expect(await askAs(service, '/api/agent/me', keys.agent)).toMatchObject({ status: 200, body: { name: 'demo-agent', scope: 'BrandWrite' } });
    }
    const listed = await askAs(services[0] as RunningService, '/api/agent/keys', keys.admin);
    expect((listed.body['keys'] as Array<{ name: string }>).map((key) => key.name).sort()).toEqual(['demo-admin', 'demo-agent']);
    expect(await services[0]?.runtime.store.directory.countApiKeys()).toBe(2);
  });
});
