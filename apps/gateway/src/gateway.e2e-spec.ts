import { existsSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { KnowledgeGraph } from '@brandwire/knowledge';
import { gatewayAnswers, gatewayBackend } from '@brandwire/knowledge-web';
import { buildSampleGraph, tempGraph, type TempGraph } from '@brandwire/knowledge-web/testing';
import { spawnGateway, waitForState } from './test-support/gateway-process';

/** Jest's own timeout when the suite runs from the root config is 5 s; a real process with Kuzu needs more. */
const PROCESS_TEST_MS = 30_000;

/** A GET with the gateway's token (from its state file), or without any. */
async function get(port: number, path: string, token?: string): Promise<{ status: number; type: string | null; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

describe('the gateway daemon as a real process', () => {
  let temp: TempGraph;
  let stateFile: string;
  beforeEach(() => {
    temp = tempGraph();
    stateFile = join(temp.dir, 'gateway', 'gateway.json');
  });
  afterEach(() => temp.remove());

  it(
    'holds the graph read-only as "the gateway", serves the query API and the page, and lets go on SIGTERM',
    async () => {
      await buildSampleGraph(temp.path);
      const gateway = spawnGateway(['--graph', temp.path, '--port', '0', '--state', stateFile]);
      const pid = gateway.child.pid ?? 0;
      try {
        const state = await waitForState(gateway, stateFile);
        expect(state).toEqual({
          pid,
          port: expect.any(Number) as unknown,
          graph: temp.path,
          startedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) as unknown,
          relays: [],
          queryToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) as unknown,
        });
        expect(statSync(stateFile).mode & 0o777).toBe(0o600);
        expect(gateway.stdout()).toMatch(
          new RegExp(`^\\S+Z gateway started: pid ${pid}, query API and view on http://127\\.0\\.0\\.1:${state.port} \\(its token in ${stateFile}\\), graph ${temp.path} \\(read-only, 15 nodes, 25 relations\\)\\n$`),
        );
        expect(gateway.stdout()).not.toContain(state.queryToken);

        // without its token the API answers nothing but how to get in
        const refused = await get(state.port, '/knowledge/status');
        expect(refused.status).toBe(401);
        expect(JSON.parse(refused.body)).toEqual({ ok: false, code: 'UNAUTHORIZED', message: expect.stringContaining('queryToken in its state file') as unknown });
        expect((await get(state.port, '/')).status).toBe(401);
        expect(await gatewayAnswers(state.port, 'x'.repeat(43))).toBe(false);

        expect(await gatewayAnswers(state.port, state.queryToken)).toBe(true);
        const api = gatewayBackend(state.port, state.queryToken);
        expect(await api.status()).toMatchObject({ path: temp.path, readOnly: true, installed: true, nodes: { Inquiry: 4, Response: 4 } });
        expect((await api.cypher('MATCH (c:Customer) RETURN c.userKey AS who ORDER BY who')).rows).toEqual([['user-1'], ['user-2']]);
        expect((await api.search('coupon', 5)).map((h) => h.id).sort()).toEqual(['conv-3#1', 'conv-3#2']);
        await expect(api.cypher("CREATE (:Channel {key: 'x'})")).rejects.toMatchObject({ code: 'BAD_QUERY', status: 400 });
        const page = await get(state.port, '/', state.queryToken);
        expect(page).toMatchObject({ status: 200, type: 'text/html; charset=utf-8' });
        expect(page.body).toContain('<title>Brandwire knowledge graph</title>');
        expect((await get(state.port, `/cypher?q=${encodeURIComponent('RETURN 1 AS one')}`, state.queryToken)).body).toBe('{"ok":true,"columns":["one"],"types":["INT64"],"rows":[[1]]}');

        await expect(KnowledgeGraph.open(temp.path, { holder: 'brandwire knowledge build' })).rejects.toMatchObject({
          code: 'GRAPH_LOCKED',
          message: expect.stringContaining(`is in use by the gateway (pid ${pid}, read-only)`) as unknown,
        });

        gateway.child.kill('SIGTERM');
        expect(await gateway.exited).toBe(0);
        expect(gateway.stdout()).toMatch(/\n\S+Z gateway stopped \(SIGTERM\)\n$/);
        expect(gateway.stderr()).toBe('');
        expect(existsSync(stateFile)).toBe(false);
        expect(await gatewayAnswers(state.port, state.queryToken)).toBe(false);
        const writer = await KnowledgeGraph.open(temp.path, { holder: 'brandwire knowledge build', bufferPoolMb: 64 });
        await writer.close();
      } finally {
        gateway.child.kill('SIGKILL');
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'starts without a graph: status says installed:false, the rest 503 NOT_INSTALLED; SIGINT stops it',
    async () => {
      const gateway = spawnGateway(['--graph', temp.path, '--port', '0', '--state', stateFile]);
      try {
        const state = await waitForState(gateway, stateFile);
        expect(gateway.stdout()).toContain(`graph ${temp.path} (not installed yet: the query API answers status only)`);
        expect(await gatewayAnswers(state.port, state.queryToken)).toBe(true);
        const status = await get(state.port, '/knowledge/status', state.queryToken);
        expect(status.status).toBe(200);
        expect(JSON.parse(status.body)).toMatchObject({ ok: true, service: 'brandwire-gateway', installed: false, path: temp.path });
        const query = await get(state.port, '/knowledge/cypher?q=RETURN%201', state.queryToken);
        expect(query.status).toBe(503);
        expect(JSON.parse(query.body)).toEqual({
          ok: false,
          code: 'NOT_INSTALLED',
          message: `The knowledge graph at ${temp.path} is not installed yet: stop the gateway first (\`brandwire gateway stop\`), then run \`brandwire knowledge install\` and \`brandwire knowledge build\`, then \`brandwire gateway start\`.`,
        });
        expect(existsSync(temp.path)).toBe(false);

        gateway.child.kill('SIGINT');
        expect(await gateway.exited).toBe(0);
        expect(gateway.stdout()).toContain('gateway stopped (SIGINT)');
        expect(existsSync(stateFile)).toBe(false);
      } finally {
        gateway.child.kill('SIGKILL');
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'exits 1 with a clear message when the port is taken, writing no state and releasing the graph',
    async () => {
      await buildSampleGraph(temp.path);
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const port = (taken.address() as { port: number }).port;
      try {
        const gateway = spawnGateway(['--graph', temp.path, '--port', String(port), '--state', stateFile]);
        expect(await gateway.exited).toBe(1);
        expect(gateway.stdout()).toMatch(
          new RegExp(
            `^\\S+Z error: the gateway could not start: Port ${port} on 127\\.0\\.0\\.1 is already in use by another program\\. Is a gateway already running\\? Otherwise stop that program or choose another port \\(\`brandwire setup <key> --query-port <n>\`\\)\\.\\n$`,
          ),
        );
        expect(existsSync(stateFile)).toBe(false);
        await (await KnowledgeGraph.open(temp.path, { bufferPoolMb: 64 })).close();
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'exits 1 naming the holder when a writer holds the graph',
    async () => {
      await buildSampleGraph(temp.path);
      const writer = await KnowledgeGraph.open(temp.path, { holder: 'brandwire knowledge build', bufferPoolMb: 64 });
      try {
        const gateway = spawnGateway(['--graph', temp.path, '--port', '0', '--state', stateFile]);
        expect(await gateway.exited).toBe(1);
        expect(gateway.stdout()).toContain(`error: the gateway could not start: The knowledge graph at ${temp.path} is in use by brandwire knowledge build (pid ${process.pid})`);
        expect(existsSync(stateFile)).toBe(false);
      } finally {
        await writer.close();
      }
    },
    PROCESS_TEST_MS,
  );

  it(
    'stops itself, saying why, when a query takes its memory past --memory-limit-mb, and lets go of the graph',
    async () => {
      await buildSampleGraph(temp.path);
      const gateway = spawnGateway(['--graph', temp.path, '--port', '0', '--state', stateFile, '--memory-limit-mb', '400']);
      const state = await waitForState(gateway, stateFile);
      // Kuzu builds the whole list outside its buffer pool (about 1.2 GB here, far past the limit), then goes on
      // through 200 million rows, which takes far longer than the stop may
      const q = 'UNWIND range(1, 2000000) AS x UNWIND range(1, 100) AS y WITH x, y WHERE x + y = -1 RETURN count(*)';
      const query = get(state.port, `/knowledge/cypher?q=${encodeURIComponent(q)}`, state.queryToken).catch((error: unknown) => error);
      let guardSpokeAt = 0;
      const watch = setInterval(() => {
        if (guardSpokeAt === 0 && gateway.stdout().includes('over its limit')) guardSpokeAt = Date.now();
      }, 20);
      const exitedAs = await gateway.exited;
      clearInterval(watch);
      expect(exitedAs).toBe('SIGKILL');
      expect(guardSpokeAt).toBeGreaterThan(0);
      expect(Date.now() - guardSpokeAt).toBeLessThan(2_000);
      expect(String(await query)).toContain('fetch failed');
      expect(gateway.stdout()).toMatch(/\n\S+Z error: the gateway uses \d+ MB, over its limit of 400 MB \(a query building a huge list, such as UNWIND range\(1, 100000000\)\); stopping before the machine runs out of memory\n$/);
      expect(existsSync(stateFile)).toBe(false);
      const graph = await KnowledgeGraph.open(temp.path, { holder: 'brandwire knowledge build' });
      await graph.close();
    },
    PROCESS_TEST_MS,
  );

  it(
    'exits 2 on a bad command line and prints its usage with --help',
    async () => {
      const missing = spawnGateway(['--port', '0', '--state', stateFile]);
      expect(await missing.exited).toBe(2);
      expect(missing.stderr()).toMatch(/^--graph <path> is required: the knowledge graph to serve\.\n\nUsage: node apps\/gateway\/dist\/main\.js --graph <path>/);
      expect(missing.stdout()).toBe('');

      const badPort = spawnGateway(['--graph', temp.path, '--state', stateFile, '--port', '70000']);
      expect(await badPort.exited).toBe(2);
      expect(badPort.stderr()).toContain('--port must be a whole number from 0 to 65535, got "70000".');

      const unknown = spawnGateway(['--graph', temp.path, '--state', stateFile, '--verbose']);
      expect(await unknown.exited).toBe(2);
      expect(unknown.stderr()).toContain("Unknown option '--verbose'");

      const badLimit = spawnGateway(['--graph', temp.path, '--state', stateFile, '--memory-limit-mb', '10']);
      expect(await badLimit.exited).toBe(2);
      expect(badLimit.stderr()).toContain('--memory-limit-mb must be a whole number of at least 64, got "10".');

      const help = spawnGateway(['--help']);
      expect(await help.exited).toBe(0);
      expect(help.stdout()).toContain('--state <file>   where to write { pid, port, graph, startedAt, relays, queryToken } once listening (mode 0600);');
      expect(help.stdout()).toContain('Every request needs the access token');
      expect(existsSync(stateFile)).toBe(false);
    },
    PROCESS_TEST_MS,
  );
});
