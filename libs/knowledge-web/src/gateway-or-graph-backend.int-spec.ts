import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { KnowledgeGraph } from '@brandwire/knowledge';
import {
  GATEWAY_SERVICE,
  type GatewayAddress,
  gatewayOrGraphBackend,
  type GatewayOrGraphTiming,
  graphBackend,
  type KnowledgeBackend,
  type KnowledgeServer,
  missingGraphBackend,
  newAccessToken,
  startKnowledgeServer,
} from './index';
import { buildSampleGraph, tempGraph, type TempGraph } from './testing';

/** Jest's own timeout when the suite runs from the root config is 5 s; building a graph on a busy machine may need more. */
const GRAPH_SETUP_MS = 30_000;

/** A test that waits out pauses of the reader and opens the graph several times. */
const WAITING_MS = 30_000;

/** What the stand-in gateways serve: a path of their own, so an answer tells who gave it. */
const GATEWAY_GRAPH = '/gateway/graph.kuzu';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A gateway (its query API) on `port` taking `token`, as `brandwire gateway start` starts one with a new token. */
function startGateway(port: number, token: string): Promise<KnowledgeServer> {
  return startKnowledgeServer({ backend: missingGraphBackend(GATEWAY_GRAPH), port, token, service: GATEWAY_SERVICE });
}

/** How long the stand-in gateway takes for status and for a Cypher statement: a gateway busy with a heavy query answers late. */
interface Delays {
  statusMs: number;
  cypherMs: number;
}

/** A gateway whose answers take `delays` (read at each call), and whose Cypher says it answered. */
function startSlowGateway(port: number, token: string, delays: Delays): Promise<KnowledgeServer> {
  const inner = missingGraphBackend(GATEWAY_GRAPH);
  const backend: KnowledgeBackend = {
    ...inner,
    status: async () => {
      await sleep(delays.statusMs);
      return inner.status();
    },
    cypher: async () => {
      await sleep(delays.cypherMs);
      return { columns: ['from'], types: ['STRING'], rows: [['gateway']] };
    },
  };
  return startKnowledgeServer({ backend, port, token, service: GATEWAY_SERVICE });
}

/** True when nothing in this process or another holds the graph: a writer (a build) can open it. */
async function writerCanOpen(path: string): Promise<boolean> {
  try {
    await (await KnowledgeGraph.open(path, { bufferPoolMb: 64 })).close();
    return true;
  } catch {
    return false;
  }
}

describe('gatewayOrGraphBackend: through the gateway its state file names now, else the graph file read-only', () => {
  let temp: TempGraph;
  let port: number;
  /** what the gateway's state file says now */
  let state: GatewayAddress | undefined;
  /** what the state file said at the next reads, before `state` */
  let stateReads: GatewayAddress[];
  let opened: number;

  const backend = (timing?: Partial<GatewayOrGraphTiming>): ReturnType<typeof gatewayOrGraphBackend> =>
    gatewayOrGraphBackend({
      gateway: () => stateReads.shift() ?? state,
      openGraph: () => {
        opened += 1;
        return KnowledgeGraph.open(temp.path, { readOnly: true, bufferPoolMb: 64 });
      },
      ...(timing !== undefined && { timing }),
    });

  beforeAll(async () => {
    temp = tempGraph();
    await buildSampleGraph(temp.path);
  }, GRAPH_SETUP_MS);
  afterAll(() => temp?.remove());
  beforeEach(async () => {
    port = await freePort();
    state = undefined;
    stateReads = [];
    opened = 0;
  });

  it('follows a restart of the gateway: the new token in its state file, also when a call was sent with the old one', async () => {
    const first = newAccessToken();
    let gateway = await startGateway(port, first);
    const reader = backend();
    try {
      state = { port, token: first };
      expect(await reader.status()).toMatchObject({ path: GATEWAY_GRAPH });
      await gateway.close();
      const second = newAccessToken();
      gateway = await startGateway(port, second);
      state = { port, token: second };
      expect(await reader.status()).toMatchObject({ path: GATEWAY_GRAPH });
      await gateway.close();
      // the state file read just before a restart: the call is refused, the file read again, and the call sent again
      const third = newAccessToken();
      gateway = await startGateway(port, third);
      stateReads = [{ port, token: second }];
      state = { port, token: third };
      expect(await reader.status()).toMatchObject({ path: GATEWAY_GRAPH });
      expect(stateReads).toEqual([]);
      expect(opened).toBe(0);
    } finally {
      await reader.close();
      await gateway.close();
    }
  });

  it('reads the graph file while no gateway answers, and goes back to the gateway (giving the file up) once one answers', async () => {
    const token = newAccessToken();
    const gateway = await startGateway(port, token);
    const reader = backend();
    try {
      state = { port, token };
      expect(await reader.status()).toMatchObject({ path: GATEWAY_GRAPH });
      await gateway.close();
      // stopped: its state file is gone
      state = undefined;
      expect(await reader.status()).toMatchObject({ path: temp.path, installed: true, nodes: { Conversation: 3 } });
      expect(await reader.cypher('MATCH (c:Customer) RETURN count(*) AS n')).toMatchObject({ rows: [[2]] });
      expect((await reader.search('refund', 5)).map((hit) => hit.kind).sort()).toEqual(['inquiry', 'response']);
      expect(opened).toBe(1);
      expect(await writerCanOpen(temp.path)).toBe(false);
      // killed: its state file is left behind, naming a port where nothing answers
      state = { port, token };
      expect(await reader.status()).toMatchObject({ path: temp.path });
      const next = newAccessToken();
      const restarted = await startGateway(port, next);
      try {
        state = { port, token: next };
        expect(await reader.status()).toMatchObject({ path: GATEWAY_GRAPH });
        expect(await writerCanOpen(temp.path)).toBe(true);
        expect(opened).toBe(1);
      } finally {
        await restarted.close();
      }
    } finally {
      await reader.close();
    }
  });

  it('reads the graph file when the gateway on the port refuses the token of the state file (another config folder\'s)', async () => {
    const theirs = await startGateway(port, newAccessToken());
    const reader = backend();
    try {
      state = { port, token: newAccessToken() };
      expect(await reader.status()).toMatchObject({ path: temp.path });
      expect(await reader.graph(3)).toMatchObject({ nodes: expect.any(Array) as unknown });
    } finally {
      await reader.close();
      await theirs.close();
    }
    expect(await writerCanOpen(temp.path)).toBe(true);
  });

  it('asks a gateway that did not answer in time (busy) again after a pause, and reads the graph file meanwhile', async () => {
    const token = newAccessToken();
    // busier than the short probe waits
    const delays: Delays = { statusMs: 1500, cypherMs: 0 };
    const gateway = await startSlowGateway(port, token, delays);
    const reader = backend({ retryFirstMs: 2000 });
    try {
      state = { port, token };
      expect(await reader.status()).toMatchObject({ path: temp.path });
      delays.statusMs = 0;
      // within the pause the gateway is not asked
      expect(await reader.status()).toMatchObject({ path: temp.path });
      await sleep(2100);
      expect(await reader.status()).toMatchObject({ path: GATEWAY_GRAPH });
      expect(await reader.cypher('RETURN 1')).toMatchObject({ rows: [['gateway']] });
      expect(await writerCanOpen(temp.path)).toBe(true);
      expect(opened).toBe(1);
    } finally {
      await reader.close();
      await gateway.close();
    }
  }, WAITING_MS);

  it('asks a gateway that keeps failing after longer and longer pauses', async () => {
    const token = newAccessToken();
    const reader = backend({ retryFirstMs: 300 });
    let gateway: KnowledgeServer | undefined;
    try {
      // killed: its state file names a port where nothing answers
      state = { port, token };
      expect(await reader.status()).toMatchObject({ path: temp.path });
      await sleep(350);
      // asked again, and failed again: the next pause is 600 ms
      expect(await reader.status()).toMatchObject({ path: temp.path });
      gateway = await startGateway(port, token);
      await sleep(400);
      expect(await reader.status()).toMatchObject({ path: temp.path });
      await sleep(300);
      expect(await reader.status()).toMatchObject({ path: GATEWAY_GRAPH });
    } finally {
      await reader.close();
      await gateway?.close();
    }
  }, WAITING_MS);

  it('answers a call the gateway took but did not answer in time with its GATEWAY_UNAVAILABLE, without running it on the graph file, and asks the gateway again', async () => {
    const token = newAccessToken();
    const delays: Delays = { statusMs: 0, cypherMs: 1500 };
    const gateway = await startSlowGateway(port, token, delays);
    const reader = backend({ callTimeoutMs: 500 });
    try {
      state = { port, token };
      expect(await reader.status()).toMatchObject({ path: GATEWAY_GRAPH });
      await expect(reader.cypher('MATCH (c:Customer) RETURN count(*) AS n')).rejects.toMatchObject({
        name: 'KnowledgeApiError',
        code: 'GATEWAY_UNAVAILABLE',
        status: 503,
        message: expect.stringContaining('500 ms') as unknown,
      });
      expect(opened).toBe(0);
      // the heavy query done, the gateway answers again
      await sleep(1100);
      delays.cypherMs = 0;
      expect(await reader.status()).toMatchObject({ path: GATEWAY_GRAPH });
      expect(await reader.cypher('RETURN 1')).toMatchObject({ rows: [['gateway']] });
      expect(opened).toBe(0);
    } finally {
      await reader.close();
      await gateway.close();
    }
  }, WAITING_MS);

  it('gives the graph file up after a while without calls, so a build can open it with no gateway running, and opens it again for the next call', async () => {
    const reader = backend({ fileIdleMs: 300 });
    try {
      expect(await reader.status()).toMatchObject({ path: temp.path });
      expect(await writerCanOpen(temp.path)).toBe(false);
      await sleep(600);
      expect(await writerCanOpen(temp.path)).toBe(true);
      expect(await reader.cypher('MATCH (c:Customer) RETURN count(*) AS n')).toMatchObject({ rows: [[2]] });
      expect(opened).toBe(2);
      expect(await writerCanOpen(temp.path)).toBe(false);
    } finally {
      await reader.close();
    }
    expect(await writerCanOpen(temp.path)).toBe(true);
  }, WAITING_MS);

  it('answers calls that arrive while the idle graph file is being closed', async () => {
    const reader = backend({ fileIdleMs: 20 });
    try {
      for (const pauseMs of [0, 15, 20, 25, 30, 40, 60, 10, 22, 35]) {
        await sleep(pauseMs);
        expect(await reader.cypher('MATCH (c:Customer) RETURN count(*) AS n')).toMatchObject({ rows: [[2]] });
      }
      const together = await Promise.all([sleep(18).then(() => reader.status()), sleep(22).then(() => reader.status()), reader.status()]);
      expect(together.map((status) => status.path)).toEqual([temp.path, temp.path, temp.path]);
      await sleep(300);
      expect(await writerCanOpen(temp.path)).toBe(true);
    } finally {
      await reader.close();
    }
  }, WAITING_MS);

  it('starts on a graph file already open, and gives it up after a while without calls', async () => {
    const graph = await KnowledgeGraph.open(temp.path, { readOnly: true, bufferPoolMb: 64 });
    const reader = gatewayOrGraphBackend({ gateway: () => undefined, openGraph: () => Promise.reject(new Error('opened again')), opened: graphBackend(graph), timing: { fileIdleMs: 300 } });
    try {
      expect(await writerCanOpen(temp.path)).toBe(false);
      await sleep(600);
      expect(await writerCanOpen(temp.path)).toBe(true);
    } finally {
      await reader.close();
    }
  }, WAITING_MS);

  it('starts on a graph file already open, and answers a graph it cannot open with its code (GRAPH_MISSING, 503)', async () => {
    const graph = await KnowledgeGraph.open(temp.path, { readOnly: true, bufferPoolMb: 64 });
    const reader = gatewayOrGraphBackend({ gateway: () => undefined, openGraph: () => Promise.reject(new Error('opened again')), opened: graphBackend(graph) });
    expect(await reader.status()).toMatchObject({ path: temp.path });
    await reader.close();
    expect(await writerCanOpen(temp.path)).toBe(true);
    const missing = gatewayOrGraphBackend({ gateway: () => undefined, openGraph: () => KnowledgeGraph.open(`${temp.dir}/none.kuzu`, { readOnly: true }) });
    await expect(missing.cypher('RETURN 1')).rejects.toMatchObject({ name: 'KnowledgeApiError', code: 'GRAPH_MISSING', status: 503 });
    await missing.close();
  });
});
