import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { KnowledgeGraph } from '@brandwire/knowledge';
import { type Browser, chromium, type Page } from 'playwright-core';
import { graphBackend, type KnowledgeServer, missingGraphBackend, newAccessToken, startKnowledgeServer } from './index';
import { buildSampleGraph, tempGraph, type TempGraph } from './testing';

/** Debian's Chromium (installed by .ci/run), driven headless. */
const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const CHROMIUM_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = join(__dirname, '../../../test-artifacts');
/** Jest's own timeout when the suite runs from the root config; a browser round needs more. */
const BROWSER_TEST_MS = 30_000;

const TOKEN = newAccessToken();

interface Traffic {
  /** every URL the page asked for */
  requests: string[];
  /** requests that failed, or answered 400 or above */
  failures: string[];
  /** console errors (CSP violations among them) and uncaught page errors */
  errors: string[];
}

function watch(page: Page): Traffic {
  const traffic: Traffic = { requests: [], failures: [], errors: [] };
  page.on('request', (request) => traffic.requests.push(request.url()));
  page.on('requestfailed', (request) => traffic.failures.push(`${request.url()}: ${request.failure()?.errorText ?? 'failed'}`));
  page.on('response', (response) => {
    if (response.status() >= 400) traffic.failures.push(`${response.url()}: HTTP ${response.status()}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') traffic.errors.push(message.text());
  });
  page.on('pageerror', (error) => traffic.errors.push(error.message));
  return traffic;
}

/** Pixels of the graph's canvases that are not fully transparent. */
function paintedPixels(page: Page): Promise<number> {
  return page.evaluate(() => {
    let painted = 0;
    for (const canvas of Array.from(document.querySelectorAll<HTMLCanvasElement>('#graph canvas'))) {
      const context = canvas.getContext('2d');
      if (context === null || canvas.width === 0 || canvas.height === 0) continue;
      const data = context.getImageData(0, 0, canvas.width, canvas.height).data;
      for (let i = 3; i < data.length; i += 4) if ((data[i] ?? 0) > 0) painted++;
    }
    return painted;
  });
}

/** The value once it satisfies `done`, or the last one read after `timeoutMs`. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await read();
  }
  return value;
}

interface CyNode {
  renderedPosition(): { x: number; y: number };
  hasClass(name: string): boolean;
}
interface Cy {
  nodes(): { length: number };
  edges(): { length: number };
  getElementById(id: string): CyNode;
}
type PageWindow = Window & { cy: Cy };

/** Clicks a node where the page draws it, as a person would. */
async function clickNode(page: Page, id: string): Promise<void> {
  const box = await page.locator('#graph').boundingBox();
  if (box === null) throw new Error('the graph container is not visible');
  const at = await page.evaluate((nodeId) => (window as unknown as PageWindow).cy.getElementById(nodeId).renderedPosition(), id);
  await page.mouse.click(box.x + at.x, box.y + at.y);
}

describe('knowledge view page in headless Chromium, over a real graph', () => {
  let temp: TempGraph;
  let graph: KnowledgeGraph;
  let server: KnowledgeServer;
  let browser: Browser;

  beforeAll(async () => {
    temp = tempGraph();
    await buildSampleGraph(temp.path);
    graph = await KnowledgeGraph.open(temp.path, { readOnly: true, bufferPoolMb: 64 });
    server = await startKnowledgeServer({ backend: graphBackend(graph), port: 0, view: true, token: TOKEN });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  }, BROWSER_TEST_MS);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await graph?.close();
    temp?.remove();
  });

  it('opened at the printed URL with ?token=, draws the graph offline, shows a clicked node, searches and runs Cypher', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const traffic = watch(page);
    await page.goto(`${server.url}/?token=${TOKEN}`);
    await page.waitForSelector('body[data-state="ready"]');
    // the token left the address bar for the cookie, which the page's own requests carry
    expect(page.url()).toBe(`${server.url}/`);
    expect(await page.evaluate(() => document.cookie)).toBe('');

    expect(await page.evaluate(() => (window as unknown as PageWindow).cy.nodes().length)).toBe(15);
    expect(await page.evaluate(() => (window as unknown as PageWindow).cy.edges().length)).toBeGreaterThan(10);
    // cytoscape paints on its next animation frames, later on a busy machine
    expect(await eventually(() => paintedPixels(page), (painted) => painted > 500)).toBeGreaterThan(500);
    expect(await page.textContent('#summary')).toBe('15 nodes and 25 relations in graph.kuzu; showing 15 nodes of the most recent conversations.');
    expect(await page.locator('#legend li').allTextContents()).toEqual(expect.arrayContaining(['Inquiry 4', 'Response 4', 'Customer 2']));

    await clickNode(page, 'Inquiry:conv-2#1');
    await page.waitForSelector('#details table.props');
    expect(await page.textContent('#details h3')).toBe('I want a refund for my card payment');
    const properties = await page.locator('#details table.props tr').evaluateAll((rows) => rows.map((row) => [row.querySelector('th')?.textContent, row.querySelector('td')?.textContent]));
    expect(properties).toEqual([
      ['loadedAt', expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as unknown],
      ['id', 'conv-2#1'],
      ['convId', 'conv-2'],
      ['turn', '1'],
      ['text', 'I want a refund for my card payment'],
      ['ts', '2026-11-20T01:10:00.000Z'],
    ]);

    await page.fill('#search-input', 'parcel');
    await page.click('#search-form button[type=submit]');
    await page.waitForSelector('#hits li');
    expect(await page.textContent('#hit-count')).toBe('(2)');
    const hits = await page.locator('#hits li .text').allTextContents();
    expect(hits.sort()).toEqual(['My parcel did not arrive yet', 'Sorry about the parcel, we will resend it today']);
    expect(await page.evaluate(() => (window as unknown as PageWindow).cy.getElementById('Inquiry:conv-1#1').hasClass('hit'))).toBe(true);
    await page.locator('#hits li', { hasText: 'Sorry about the parcel' }).click();
    await page.waitForFunction(() => document.querySelector('#details table.props')?.textContent?.includes('Sorry about the parcel, we will resend it today'));
    expect(await page.textContent('#details h3')).toBe('Sorry about the parcel, we will resend …');
    expect(await page.locator('#details table.props tr', { hasText: 'role' }).textContent()).toBe('roleagent');

    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, 'knowledge-view.png') });

    await page.fill('#cypher-input', 'MATCH (i:Inquiry)-[:HAS_ATTACHMENT]->(a:Attachment) RETURN i.id AS inquiry, a');
    await page.click('#cypher-form button[type=submit]');
    await page.waitForSelector('#cypher-result table');
    expect(await page.textContent('#cypher-status')).toBe('1 row; nodes marked red on the graph');
    expect(await page.locator('#cypher-result th').allTextContents()).toEqual(['inquirySTRING', 'aNODE']);
    expect(await page.locator('#cypher-result td').allTextContents()).toEqual(['conv-1#2', 'Attachment conv-1#2/1']);
    expect(await page.evaluate(() => (window as unknown as PageWindow).cy.getElementById('Attachment:conv-1#2/1').hasClass('picked'))).toBe(true);

    expect(traffic.failures).toEqual([]);
    expect(traffic.errors).toEqual([]);
    expect(traffic.requests.length).toBeGreaterThan(4);
    expect(traffic.requests.filter((url) => !url.startsWith(`${server.url}/`))).toEqual([]);
    expect(traffic.requests.filter((url) => url.includes('token='))).toEqual([`${server.url}/?token=${TOKEN}`]);
    expect(traffic.requests).toEqual(expect.arrayContaining([`${server.url}/assets/cytoscape.min.js`, `${server.url}/knowledge/graph.json?limit=300`]));

    await page.fill('#cypher-input', "CREATE (:Channel {key: 'from-the-page'})");
    await page.keyboard.press('Control+Enter');
    await page.waitForSelector('#cypher-status.error');
    expect(await page.textContent('#cypher-status')).toMatch(/read-only/i);
    await page.close();
  }, BROWSER_TEST_MS);

  it('shows the 401 answer, saying how to get in, when opened without the token or with a wrong one', async () => {
    const page = await browser.newPage();
    try {
      for (const url of [`${server.url}/`, `${server.url}/?token=${newAccessToken()}`]) {
        const response = await page.goto(url);
        expect(response?.status()).toBe(401);
        const shown = JSON.parse((await page.textContent('body')) ?? '') as unknown;
        expect(shown).toEqual({ ok: false, code: 'UNAUTHORIZED', message: expect.stringContaining('open the page at the URL with ?token=') as unknown });
      }
      expect(await page.context().cookies()).toEqual([]);
    } finally {
      await page.close();
    }
  }, BROWSER_TEST_MS);

  it('loads at localhost as well', async () => {
    const page = await browser.newPage();
    const traffic = watch(page);
    await page.goto(`http://localhost:${server.port}/?token=${TOKEN}`);
    await page.waitForSelector('body[data-state="ready"]');
    expect(await page.evaluate(() => (window as unknown as PageWindow).cy.nodes().length)).toBe(15);
    expect(traffic.failures).toEqual([]);
    expect(traffic.errors).toEqual([]);
    await page.close();
  }, BROWSER_TEST_MS);

  it('says what to do when the graph is not installed', async () => {
    const empty = await startKnowledgeServer({ backend: missingGraphBackend('/nowhere/graph.kuzu'), port: 0, view: true, token: TOKEN });
    const page = await browser.newPage();
    try {
      await page.goto(`${empty.url}/?token=${TOKEN}`);
      await page.waitForSelector('body[data-state="error"]');
      expect(await page.textContent('#summary')).toBe('Not installed.');
      expect(await page.textContent('#graph-message')).toBe(
        'The knowledge graph at /nowhere/graph.kuzu is not installed yet: run `brandwire knowledge install` and `brandwire knowledge build` first.',
      );
    } finally {
      await page.close();
      await empty.close();
    }
  }, BROWSER_TEST_MS);
});
