import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KnowledgeGraph } from '@brandwire/knowledge';
import { GATEWAY_SERVICE, gatewayAnswers, gatewayBackend, graphBackend, KnowledgeApiError, type KnowledgeServer, missingGraphBackend, newAccessToken, probeGateway, startKnowledgeServer } from './index';
import { buildSampleGraph, tempGraph, type TempGraph } from './testing';

/** Jest's own timeout when the suite runs from the root config is 5 s; building a graph on a busy machine may need more. */
const GRAPH_SETUP_MS = 30_000;

const TOKEN = newAccessToken();

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function freePort(): Promise<number> {
  const server = createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('gatewayBackend and gatewayAnswers against a real query API', () => {
  let temp: TempGraph;
  let graph: KnowledgeGraph;
  let gateway: KnowledgeServer;
  let other: Server;
  let otherPort: number;

  beforeAll(async () => {
    temp = tempGraph();
    await buildSampleGraph(temp.path);
    graph = await KnowledgeGraph.open(temp.path, { readOnly: true, bufferPoolMb: 64 });
    gateway = await startKnowledgeServer({ backend: graphBackend(graph), port: 0, token: TOKEN, service: GATEWAY_SERVICE });
    // another program on a port: answers everything with 200 and a page
    other = createServer((_req, res) => res.end('<html>hello</html>'));
    otherPort = await listen(other);
  }, GRAPH_SETUP_MS);
  afterAll(async () => {
    await gateway?.close();
    await graph?.close();
    await new Promise((resolve) => other?.close(resolve));
    temp?.remove();
  });

  it('reads status, Cypher, search and the graph slice through the gateway as the graph itself gives them', async () => {
    const remote = gatewayBackend(gateway.port, TOKEN);
    const local = graphBackend(graph);
    expect(await remote.status()).toEqual(await local.status());
    const q = 'MATCH (r:Response) RETURN r.id AS id, r.role AS role, r ORDER BY id';
    expect(await remote.cypher(q)).toEqual(await local.cypher(q));
    expect(await remote.search('parcel', 5)).toEqual(await local.search('parcel', 5));
    expect(await remote.graph(6)).toEqual(await local.graph(6));
    await remote.close();
  });

  it('keeps the server code, status and message of a failure', async () => {
    const remote = gatewayBackend(gateway.port, TOKEN);
    const write = await remote.cypher("CREATE (:Channel {key: 'x'})").catch((e: unknown) => e);
    expect(write).toBeInstanceOf(KnowledgeApiError);
    expect(write).toMatchObject({ code: 'BAD_QUERY', status: 400, message: expect.stringMatching(/read-only/i) as unknown });
    await expect(remote.search('', 5)).rejects.toMatchObject({ code: 'BAD_REQUEST', status: 400 });
  });

  it('passes NOT_INSTALLED (503) through from a gateway without a graph', async () => {
    const empty = await startKnowledgeServer({ backend: missingGraphBackend('/nowhere/graph.kuzu', 'install it.'), port: 0, token: TOKEN, service: GATEWAY_SERVICE });
    try {
      const remote = gatewayBackend(empty.port, TOKEN);
      expect(await remote.status()).toMatchObject({ installed: false, path: '/nowhere/graph.kuzu' });
      await expect(remote.cypher('RETURN 1')).rejects.toMatchObject({
        name: 'KnowledgeApiError',
        code: 'NOT_INSTALLED',
        status: 503,
        message: 'The knowledge graph at /nowhere/graph.kuzu is not installed yet: install it.',
      });
      expect(await gatewayAnswers(empty.port, TOKEN)).toBe(true);
    } finally {
      await empty.close();
    }
  });

  it('fails with GATEWAY_UNAVAILABLE when nothing listens or another program answers', async () => {
    const port = await freePort();
    const refused = await gatewayBackend(port, TOKEN).status().catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'GATEWAY_UNAVAILABLE', status: 503, message: expect.stringContaining(`The gateway's query API on 127.0.0.1:${port} did not answer: connect ECONNREFUSED`) as unknown });
    await expect(gatewayBackend(otherPort, TOKEN).status()).rejects.toMatchObject({
      code: 'GATEWAY_UNAVAILABLE',
      status: 503,
      message: `Port ${otherPort} on 127.0.0.1 answered /knowledge/status with HTTP 200 but not as the Brandwire query API.`,
    });
  });

  it('sends the token: without the right one a call fails with the gateway UNAUTHORIZED (401) and its message', async () => {
    await expect(gatewayBackend(gateway.port, newAccessToken()).status()).rejects.toMatchObject({
      name: 'KnowledgeApiError',
      code: 'UNAUTHORIZED',
      status: 401,
      message: expect.stringContaining('This server needs its access token') as unknown,
    });
    expect(await gatewayAnswers(gateway.port, newAccessToken())).toBe(false);
  });

  it('probeGateway tells a gateway taking the token from one refusing it (another config folder or user) and from no gateway', async () => {
    expect(await probeGateway(gateway.port, TOKEN)).toBe('answers');
    expect(await probeGateway(gateway.port, undefined)).toBe('refuses-token');
    expect(await probeGateway(gateway.port, newAccessToken())).toBe('refuses-token');
    expect(await probeGateway(otherPort, undefined)).toBe('none');
    expect(await probeGateway(await freePort(), TOKEN)).toBe('none');
    const view = await startKnowledgeServer({ backend: graphBackend(graph), port: 0, view: true, token: TOKEN });
    try {
      // a `knowledge view` refusing the token is no gateway
      expect(await probeGateway(view.port, undefined)).toBe('none');
      expect(await probeGateway(view.port, TOKEN)).toBe('none');
    } finally {
      await view.close();
    }
  });

  it('gatewayAnswers is true only for a Brandwire gateway answering in time', async () => {
    expect(await gatewayAnswers(gateway.port, TOKEN)).toBe(true);
    expect(await gatewayAnswers(await freePort(), TOKEN)).toBe(false);
    expect(await gatewayAnswers(otherPort, TOKEN)).toBe(false);
    const view = await startKnowledgeServer({ backend: graphBackend(graph), port: 0, view: true, token: TOKEN });
    try {
      expect(await gatewayAnswers(view.port, TOKEN)).toBe(false);
    } finally {
      await view.close();
    }
    const silent = createServer(() => undefined);
    const silentPort = await listen(silent);
    try {
      const started = Date.now();
      expect(await gatewayAnswers(silentPort, TOKEN, 200)).toBe(false);
      expect(Date.now() - started).toBeLessThan(1500);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
