import { userInfo } from 'node:os';

/** The test server, with its user left out (nothing of pg is loaded before the environment is set: it reads USER once). */
const serverUrl = new URL(process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test');

describe('a DATABASE_URL that names no user, with USER and PGUSER unset (a service manager, a container)', () => {
  const saved = { USER: process.env['USER'], PGUSER: process.env['PGUSER'] };
  beforeAll(() => {
    delete process.env['USER'];
    delete process.env['PGUSER'];
  });
  afterAll(() => {
    for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
  });

  it('connects as the login name, as psql does', async () => {
    const login = userInfo().username;
    await jest.isolateModulesAsync(async () => {
      // a fresh module registry needs require: pg reads USER when it is loaded
      const { Client } = require('pg') as typeof import('pg');
      const admin = new Client({ connectionString: serverUrl.toString() });
      await admin.connect();
      try {
        const role = await admin.query('select 1 from pg_roles where rolname = $1', [login]);
        if (role.rowCount === 0) await admin.query(`create role "${login.replaceAll('"', '""')}" login`);
      } finally {
        await admin.end();
      }
      const { postgresPool } = require('./postgres-pool') as typeof import('./postgres-pool');
      const userless = new URL(serverUrl);
      userless.username = '';
      const pool = postgresPool(userless.toString(), 1, 'requests');
      try {
        const { rows } = await pool.connect().then(async (client) => {
          try {
            return await client.query<{ name: string }>('select current_user as name', []);
          } finally {
            client.release();
          }
        });
        expect(rows[0]).toEqual({ name: login });
      } finally {
        await pool.end();
      }
    });
  });
});
