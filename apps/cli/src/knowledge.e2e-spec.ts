import { chmodSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TEST_TOKENS } from '@brandwire/client/testing';
import { type CliRun, CliSandbox, LAUNCHER, spawnCli } from './test-support/cli';
import { exited, firstLine, freePort } from './test-support/processes';
import { Pty, plain } from './test-support/pty';

describe('brandwire knowledge: install, build, search, query, status and view on a real graph', () => {
  let s: CliSandbox;
  let config: string;
  let configFile: string;
  let queryPort: number;

  const kg = (args: readonly string[]): Promise<CliRun> => s.run(['knowledge', ...args], { config, token: TEST_TOKENS.reader });

  beforeAll(async () => {
    // not the default host: build must take the one the service tells
    s = await CliSandbox.start({ ATTACHMENT_HOST: 'cdn.acme.test' });
    config = s.configDir('kg');
    configFile = join(config, 'config.json');
    // a port with no gateway: these commands must open the graph themselves
    queryPort = await freePort();
    // written with the mode setup gives it; install must keep the mode and the query port
    mkdirSync(config, { recursive: true, mode: 0o700 });
    writeFileSync(configFile, JSON.stringify({ knowledge: { queryPort } }), { mode: 0o600 });

    await s.service.customerWrites('alice', 'My card payment failed, can I get a refund?');
    await s.run(['send', '--channel', 'acme-kakao', '--to', 'alice', '--text', 'The refund goes back to your card within three days.'], { token: TEST_TOKENS.writer });
    await s.service.customerWrites('bob', 'Where is my parcel?');
    await s.service.customerWrites('bob', 'It was due yesterday.');
    await s.run(['send', '--channel', 'acme-kakao', '--to', 'bob', '--text', 'Your parcel left the depot today.'], { token: TEST_TOKENS.writer });
    await s.service.call('POST', '/sandbox/customers/bob/end', { brandKey: 'acme-kakao' });
    const photo = await s.service.call('POST', '/sandbox/customers/carol/messages', { brandKey: 'acme-kakao', attachments: [{ type: 'photo', caption: 'the broken lid' }] });
    expect(photo.status).toBe(200);
  });
  afterAll(async () => {
    await s.stop();
  });

  it('says the graph is not installed before install', async () => {
    const run = await kg(['status', '--json']);
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({
      ok: true, installed: false, enabled: false, queryPort, graphPath: join(config, 'knowledge', 'graph.kuzu'), via: 'none', kuzuVersion: null, nodes: {}, relations: {}, ftsIndexes: [],
    });
  });

  it('installs the schema and enables the feature; a second install creates nothing and keeps the config file private', async () => {
    const first = await kg(['install', '--json']);
    expect(first.code).toBe(0);
    expect(first.json()).toMatchObject({
      ok: true, kuzuVersion: '0.11.3', graphPath: join(config, 'knowledge', 'graph.kuzu'), enabled: true, configPath: configFile,
      createdTables: expect.arrayContaining(['Channel', 'Customer', 'Conversation', 'Inquiry', 'Response', 'Attachment', 'ASKED']),
      createdIndexes: ['inquiry_text', 'response_text'],
    });
    const second = await kg(['install']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('The knowledge graph was installed already; nothing to create.');
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    // the graph holds customers' words: its folder is the owner's only
    expect(statSync(join(config, 'knowledge')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(configFile, 'utf8'))).toEqual({ knowledge: { queryPort, enabled: true } });
  });

  it('builds the graph from the consultations of the service; a second build adds nothing', async () => {
    const build = await kg(['build', '--channel', 'acme-kakao', '--json']);
    expect({ code: build.code, stderr: build.stderr }).toEqual({ code: 0, stderr: '' });
    expect(build.json()).toMatchObject({
      ok: true, channel: 'acme-kakao', attachmentHost: 'cdn.acme.test', conversations: 3, newConversations: 3, grownConversations: 0, skipped: [],
      addedNodes: { Channel: 1, Customer: 3, Conversation: 3, Inquiry: 4, Response: 2, Attachment: 1 },
    });
    const again = await kg(['build', '--json']);
    expect(again.code).toBe(0);
    expect(again.json()).toMatchObject({ ok: true, channel: null, conversations: 3, newConversations: 0, grownConversations: 0, addedNodes: {}, addedRelations: {} });
    const text = await kg(['build']);
    expect(text.stdout).toMatch(/^Read 3 conversations \(\d+ messages\) in [\d.]+ s: 0 new, 0 grown\.\n/);
  });

  it('shows a progress bar while building on a terminal, and none with --json', async () => {
    const env = { BRANDWIRE_ENDPOINT: s.url, BRANDWIRE_TOKEN: TEST_TOKENS.reader, BRANDWIRE_CONFIG_DIR: config };
    const tty = new Pty(`${LAUNCHER} knowledge build`, env);
    expect(await tty.exit()).toBe(0);
    expect(plain(tty.output)).toMatch(/░{24} reading: \d+ conversations, \d+ messages read/);
    expect(plain(tty.output)).toMatch(/█{24} done: 3 conversations, \d+ messages read/);
    expect(plain(tty.output)).toContain('Read 3 conversations');
    const json = new Pty(`${LAUNCHER} knowledge build --json`, env);
    expect(await json.exit()).toBe(0);
    expect(plain(json.output)).toMatch(/^\{"ok":true,[^\n]*\}\n$/);
  });

  it('shows the counts per table in status, read from the graph file', async () => {
    const run = await kg(['status', '--json']);
    expect(run.json()).toMatchObject({
      ok: true, installed: true, enabled: true, via: 'graph', kuzuVersion: '0.11.3', ftsIndexes: ['inquiry_text', 'response_text'],
      nodes: { Channel: 1, Customer: 3, Conversation: 3, Inquiry: 4, Response: 2, Attachment: 1 },
      relations: expect.objectContaining({ HAS_CUSTOMER: 3, HAS_CONVERSATION: 3, ASKED: 4, ENDED: 1, HAS_ATTACHMENT: 1 }),
    });
    const text = await kg(['status']);
    expect(text.stdout).toMatch(/installed: +yes/);
    expect(text.stdout).toMatch(/│ node +│ Inquiry +│ 4 +│/);
  });

  it('never reads through a gateway of another config folder that answers on the query port', async () => {
    // it answers as a gateway would, with a graph that is not this folder's
    const foreign = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ ok: true, service: 'brandwire-gateway', installed: true, nodes: { Inquiry: 99 }, relations: {}, ftsIndexes: [] }));
    });
    await new Promise<void>((done) => foreign.listen(queryPort, '127.0.0.1', done));
    try {
      const run = await kg(['status', '--json']);
      expect(run.json()).toMatchObject({ ok: true, via: 'graph', nodes: { Inquiry: 4 } });
    } finally {
      await new Promise((done) => foreign.close(done));
    }
  });

  it('answers search --cypher --json with columns, Kuzu type names and JSON-typed values', async () => {
    const run = await kg(['search', '--cypher', 'MATCH (c:Conversation) RETURN c.userKey AS who, c.lines AS lines, c.ended AS ended, c.startedAt AS started, 9007199254740993 AS big ORDER BY who', '--json']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const result = run.json<{ ok: boolean; columns: string[]; types: string[]; rows: unknown[][] }>();
    expect(result.columns).toEqual(['who', 'lines', 'ended', 'started', 'big']);
    expect(result.types).toEqual(['STRING', 'INT64', 'BOOL', 'TIMESTAMP', 'INT64']);
    expect(result.rows).toEqual([
      ['alice', 3, false, expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/), '9007199254740993'],
      ['bob', expect.any(Number), true, expect.any(String), '9007199254740993'],
      ['carol', 2, false, expect.any(String), '9007199254740993'],
    ]);
    const text = await kg(['search', '--cypher', 'MATCH (i:Inquiry)-[:HAS_ATTACHMENT]->(a:Attachment) RETURN a.type, a.caption, i.convId']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/│ a\.type │ a\.caption +│ i\.convId +│/);
    expect(text.stdout).toMatch(/│ photo +│ the broken lid │ \S+ +│\n└[─┴]+┘\n\(1 row\)\n$/);
  });

  it('refuses a write in search --cypher: the graph is opened read-only', async () => {
    const run = await kg(['search', '--cypher', "CREATE (:Channel {key: 'sneaky'})", '--json']);
    expect(run.code).toBe(1);
    expect(run.json()).toEqual({ ok: false, error: expect.stringMatching(/read-only/i), code: 'BAD_QUERY', hint: 'writes and DDL need `brandwire knowledge query --write` (with the gateway stopped)' });
    const text = await kg(['search', '--cypher', "CREATE (:Channel {key: 'sneaky'})"]);
    expect(text.stderr).toContain('Hint: writes and DDL need `brandwire knowledge query --write`');
    const count = await kg(['search', '--cypher', 'MATCH (c:Channel) RETURN count(*) AS n', '--json']);
    expect(count.json()).toMatchObject({ rows: [[1]] });
  });

  it('searches the words of past inquiries and responses and points to --cypher', async () => {
    const run = await kg(['search', 'refund', '--json']);
    expect(run.code).toBe(0);
    const result = run.json<{ ok: boolean; query: string; method: string; hits: Array<{ kind: string; text: string; role: string }> }>();
    expect(result).toMatchObject({ ok: true, query: 'refund', method: 'full-text' });
    expect(result.hits.map((h) => [h.kind, h.role, h.text])).toEqual(
      expect.arrayContaining([
        ['inquiry', 'customer', 'My card payment failed, can I get a refund?'],
        ['response', 'agent', 'The refund goes back to your card within three days.'],
      ]),
    );
    expect(run.stderr).toContain('Hint: for exact questions, query the graph with --cypher');
    const text = await kg(['search', 'parcel']);
    expect(text.stdout).toMatch(/│ SCORE │ KIND +│ ROLE +│ CONV ID +│ TURN │ TIME +│ TEXT +│/);
    expect(text.stdout).toContain('Where is my parcel?');
    expect(text.stdout).toContain('Hint: for exact questions, query the graph with --cypher');
    const none = await kg(['search', 'zeppelin']);
    expect(none.stdout).toMatch(/^Nothing in the graph matches "zeppelin"\./);
  });

  it('takes --limit up to 200, the most hits the gateway answers too, and refuses 201 as a usage error', async () => {
    const most = await kg(['search', 'parcel', '--limit', '200', '--json']);
    expect({ code: most.code, ok: most.json<{ ok: boolean }>().ok }).toEqual({ code: 0, ok: true });
    for (const limit of ['201', '500']) {
      const run = await kg(['search', 'parcel', '--limit', limit, '--json']);
      expect({ limit, code: run.code }).toEqual({ limit, code: 2 });
      expect(run.json()).toEqual({ ok: false, error: `Parsing --limit; Expected an integer less than or equal to 200 but received: ${limit}`, code: 'USAGE', hint: 'see --help for the flags and arguments' });
    }
    const text = await kg(['search', 'parcel', '--limit', '201']);
    expect(text.code).toBe(2);
    expect(text.stderr).toBe('Error: Parsing --limit; Expected an integer less than or equal to 200 but received: 201\nHint: see --help for the flags and arguments\n');
  });

  describe('with an AI model configured', () => {
    interface Seen { path: string; authorization?: string; body: { model?: string; messages?: Array<{ role: string; content: string }> } }
    const seen: Seen[] = [];
    let status = 200;
    let answersPage = false;
    let server: Server;
    let aiUrl: string;

    beforeAll(async () => {
      server = createServer((req, res) => {
        let raw = '';
        req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        req.on('end', () => {
          seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(raw || '{}') as Seen['body'] });
          if (answersPage) {
            res.writeHead(200, { 'content-type': 'text/html' });
            res.end('<html><body>Sign in to the proxy</body></html>');
            return;
          }
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(status === 200 ? JSON.stringify({ choices: [{ message: { content: '["refund","card"]' } }] }) : JSON.stringify({ error: { message: 'the model is down' } }));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      aiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    const withAi = async <T>(body: () => Promise<T>): Promise<T> => {
      const before = readFileSync(configFile, 'utf8');
      writeFileSync(configFile, JSON.stringify({ ...JSON.parse(before), gateway: { ai: { provider: 'openai', model: 'test-model', apiKey: 'sk-test', url: aiUrl } } }), { mode: 0o600 });
      try {
        return await body();
      } finally {
        writeFileSync(configFile, before, { mode: 0o600 });
      }
    };

    it('extracts keywords with the model, then matches them by full-text search, and never shows the key', async () => {
      status = 200;
      seen.length = 0;
      const [run, text] = await withAi(async () => [await kg(['search', 'how did we handle card refunds?', '--json']), await kg(['search', 'how did we handle card refunds?'])]);
      expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      const result = run.json<{ hits: Array<{ kind: string; text: string }> }>();
      expect(result).toMatchObject({ ok: true, query: 'how did we handle card refunds?', method: 'full-text', keywords: ['refund', 'card'], matchedBy: 'ai-keywords' });
      expect(result.hits).toEqual(expect.arrayContaining([expect.objectContaining({ kind: 'inquiry', text: 'My card payment failed, can I get a refund?' })]));
      expect(seen[0]).toMatchObject({ path: '/v1/chat/completions', authorization: 'Bearer sk-test', body: { model: 'test-model' } });
      expect(seen[0].body.messages).toEqual(expect.arrayContaining([expect.objectContaining({ role: 'user', content: expect.stringContaining('how did we handle card refunds?') })]));
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(/^Keywords: refund, card\n/);
      expect(text.stdout).toContain('My card payment failed, can I get a refund?');
      for (const out of [run.stdout, run.stderr, text.stdout, text.stderr]) expect(out).not.toContain('sk-test');
      expect(statSync(configFile).mode & 0o777).toBe(0o600);
    });

    it('fails with AI_UNAVAILABLE naming the provider when the model cannot answer', async () => {
      status = 500;
      try {
        const [run, text] = await withAi(async () => [await kg(['search', 'how did we handle card refunds?', '--json']), await kg(['search', 'how did we handle card refunds?'])]);
        expect(run.code).toBe(1);
        expect(run.json()).toMatchObject({ ok: false, code: 'AI_UNAVAILABLE', error: expect.stringMatching(/openai\/test-model.*HTTP 500/) });
        expect(text.code).toBe(1);
        expect(text.stderr).toContain('openai');
        for (const out of [run.stdout, run.stderr, text.stdout, text.stderr]) expect(out).not.toContain('sk-test');
      } finally {
        status = 200;
      }
    });

    it('fails with AI_UNAVAILABLE when the model url answers a page instead of the provider\'s JSON', async () => {
      answersPage = true;
      try {
        const run = await withAi(() => kg(['search', 'how did we handle card refunds?', '--json']));
        expect(run.code).toBe(1);
        expect(run.json()).toMatchObject({ ok: false, code: 'AI_UNAVAILABLE', error: expect.stringContaining("did not answer with the provider's JSON (it began: <html><body>Sign in to the proxy") });
      } finally {
        answersPage = false;
      }
    });
  });

  it('reports each statement of a batch, stops at a failed #2 with exit 1, and goes on with --continue-on-error', async () => {
    const batch = 'MATCH (c:Customer) RETURN count(*) AS customers; MATCH (x:Nope) RETURN x; MATCH (i:Inquiry) RETURN count(*) AS inquiries';
    const stops = await kg(['query', batch]);
    expect(stops.code).toBe(1);
    expect(stops.stdout).toMatch(/^#1 ok \(1 row\)\n.*customers.*\n.*3.*\n\(1 row\)\n#2 FAILED: .*Nope.*\n#3 skipped\n$/s);
    expect(stops.stderr).toMatch(/^Error: #2 FAILED: .*Nope.* \(BAD_QUERY\)\n$/);
    const goesOn = await kg(['query', '--continue-on-error', batch, '--json']);
    expect(goesOn.code).toBe(1);
    const report = goesOn.json<{ ok: boolean; code: string; lines: string[]; statements: Array<{ index: number; ok: boolean; result?: { rows: unknown[][] } }> }>();
    expect(report).toMatchObject({ ok: false, code: 'BAD_QUERY', error: expect.stringMatching(/^#2 FAILED: /) });
    expect(report.lines).toEqual(['#1 ok (1 row)', expect.stringMatching(/^#2 FAILED: .*Nope/), '#3 ok (1 row)']);
    expect(report.statements[2]).toMatchObject({ index: 3, ok: true, result: { columns: ['inquiries'], types: ['INT64'], rows: [[4]] } });
    const fine = await kg(['query', 'MATCH (c:Customer) RETURN count(*) AS n; MATCH (r:Response) RETURN count(*) AS n', '--json']);
    expect(fine.code).toBe(0);
    expect(fine.json()).toMatchObject({ ok: true, via: 'graph', lines: ['#1 ok (1 row)', '#2 ok (1 row)'] });
  });

  it('says MISSING_PARAMETER (exit 2) for a $parameter alike in query, query --write and search --cypher, naming it and how to give it, before running anything', async () => {
    const missing = { ok: false, code: 'MISSING_PARAMETER', error: 'Missing query parameter: $p', hint: 'write the value into the statement: the tool passes no parameters' };
    for (const args of [['query', 'RETURN $p'], ['query', 'RETURN 1; RETURN $p'], ['query', '--write', 'RETURN $p'], ['search', '--cypher', 'RETURN $p']]) {
      const json = await kg([...args, '--json']);
      expect({ args, code: json.code, json: json.json() }).toEqual({ args, code: 2, json: missing });
      const text = await kg(args);
      expect({ args, code: text.code, stdout: text.stdout, stderr: text.stderr }).toEqual({
        args,
        code: 2,
        stdout: '',
        stderr: 'Error: Missing query parameter: $p (MISSING_PARAMETER)\nHint: write the value into the statement: the tool passes no parameters\n',
      });
    }
  });

  it('holds a batch to 100,000 rows in all: the statement that takes it over fails (exit 1), naming the limit', async () => {
    const rows = 'UNWIND range(1, 60000) AS x RETURN x';
    const run = await kg(['query', `${rows}; ${rows}`, '--json']);
    expect(run.code).toBe(1);
    const tooMany = "#2 FAILED: It ran, but its result is not shown: it takes the batch to 120,000 rows, over the 100,000 a batch may answer in all (its writes stay unless rolled back): add LIMIT, or run smaller batches.";
    expect(run.json()).toMatchObject({ ok: false, code: 'BAD_QUERY', error: tooMany, lines: ['#1 ok (60000 rows)', tooMany] });
  });

  it('refuses writes and DDL without --write, and runs them with it', async () => {
    const ddl = "CREATE NODE TABLE Note(id STRING PRIMARY KEY, text STRING); CREATE (:Note {id: 'n1', text: 'call back on Monday'})";
    const refused = await kg(['query', ddl]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^#1 FAILED: .*read-only.*\n#2 skipped\n$/i);
    expect(refused.stderr).toContain('Hint: writes and DDL need `brandwire knowledge query --write`');
    const written = await kg(['query', '--write', ddl, '--json']);
    expect({ code: written.code, stderr: written.stderr }).toEqual({ code: 0, stderr: '' });
    expect(written.json()).toMatchObject({ ok: true, lines: ['#1 ok (1 row)', '#2 ok (0 rows)'] });
    const read = await kg(['query', 'MATCH (n:Note) RETURN n.id, n.text', '--json']);
    expect(read.json()).toMatchObject({ ok: true, statements: [{ ok: true, result: { rows: [['n1', 'call back on Monday']] } }] });
  });

  it('fails a --write batch that ends inside the transaction it began, saying its writes were rolled back', async () => {
    const batch = "CREATE (:Note {id: 'kept', text: 'before'}); BEGIN TRANSACTION; CREATE (:Note {id: 'lost', text: 'inside'})";
    const rolledBack = 'the batch ended inside the transaction #2 began (BEGIN TRANSACTION without COMMIT): its writes were rolled back';
    const text = await kg(['query', '--write', batch]);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe(`#1 ok (0 rows)\n#2 ran, rolled back (0 rows)\n#3 ran, rolled back (0 rows)\nFAILED: ${rolledBack}\n`);
    expect(text.stderr).toBe(`Error: ${rolledBack} (BAD_QUERY)\nHint: end the batch with COMMIT to keep what it writes\n`);
    const json = await kg(['query', '--write', batch.replace(/'kept'/, "'kept2'"), '--json']);
    expect(json.code).toBe(1);
    expect(json.json()).toEqual({
      ok: false,
      error: rolledBack,
      code: 'BAD_QUERY',
      hint: 'end the batch with COMMIT to keep what it writes',
      statements: [
        { index: 1, statement: "CREATE (:Note {id: 'kept2', text: 'before'})", ok: true, result: { columns: [], types: [], rows: [] } },
        { index: 2, statement: 'BEGIN TRANSACTION', ok: true, rolledBack: true, result: { columns: [], types: [], rows: [] } },
        { index: 3, statement: "CREATE (:Note {id: 'lost', text: 'inside'})", ok: true, rolledBack: true, result: { columns: [], types: [], rows: [] } },
      ],
      lines: ['#1 ok (0 rows)', '#2 ran, rolled back (0 rows)', '#3 ran, rolled back (0 rows)', `FAILED: ${rolledBack}`],
    });
    const notes = await kg(['query', 'MATCH (n:Note) RETURN n.id ORDER BY n.id', '--json']);
    expect(notes.json()).toMatchObject({ ok: true, statements: [{ result: { rows: [['kept'], ['kept2'], ['n1']] } }] });
  });

  it('serves the view on 127.0.0.1 until Ctrl-C; a build meanwhile is refused naming the view as the holder', async () => {
    const view = spawnCli(['knowledge', 'view', '--port', '0', '--json'], { env: { BRANDWIRE_ENDPOINT: s.url, BRANDWIRE_CONFIG_DIR: config, BRANDWIRE_TOKEN: TEST_TOKENS.reader }, processGroup: true });
    try {
      const started = JSON.parse(await firstLine(view)) as { ok: boolean; url: string; localhostUrl: string; port: number; via: string };
      const token = new URL(started.url).searchParams.get('token') ?? '';
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(started).toEqual({ ok: true, url: `http://127.0.0.1:${started.port}/?token=${token}`, localhostUrl: `http://localhost:${started.port}/?token=${token}`, port: expect.any(Number), via: 'graph' });
      const base = `http://127.0.0.1:${started.port}/`;
      expect((await fetch(base)).status).toBe(401);
      // the printed URL lets the page in: its token for a cookie
      const login = await fetch(started.url, { redirect: 'manual' });
      expect([login.status, login.headers.get('location')]).toEqual([303, '/']);
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const page = await fetch(base, { headers: { cookie } });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toContain('text/html');
      const cypher = await fetch(`${base}cypher?q=${encodeURIComponent('MATCH (c:Customer) RETURN c.userKey AS who ORDER BY who')}`, { headers: { cookie } });
      expect(await cypher.json()).toMatchObject({ ok: true, columns: ['who'], rows: [['alice'], ['bob'], ['carol']] });

      const build = await kg(['build', '--json']);
      expect(build.code).toBe(1);
      expect(build.json()).toMatchObject({ ok: false, code: 'GRAPH_LOCKED', error: expect.stringContaining('brandwire knowledge view (pid'), holders: [expect.objectContaining({ description: 'brandwire knowledge view', readOnly: true })] });
      const reader = await kg(['status', '--json']);
      expect(reader.json()).toMatchObject({ ok: true, installed: true, via: 'graph' });
    } finally {
      // Ctrl-C in a terminal: the whole job gets SIGINT, the tool once from the terminal and once from the launcher
      process.kill(-(view.pid ?? 0), 'SIGINT');
    }
    await exited(view);
    expect(view.exitCode).toBe(0);
    // it closed the graph: no holder file is left behind
    expect(readdirSync(join(config, 'knowledge', 'graph.kuzu.holders'))).toEqual([]);
  });

  it('opens the browser with --open at a one-time sign-in URL, never the token (command lines are public)', async () => {
    // xdg-open (inside the `open` package) hands the URL to $BROWSER when there is no desktop: a script records it
    const browserLog = join(s.dir, 'view-browser.log');
    const fakeBrowser = join(s.dir, 'view-browser.sh');
    writeFileSync(fakeBrowser, `#!/bin/sh\necho "$1" >> ${browserLog}\n`);
    chmodSync(fakeBrowser, 0o755);
    const env = { BRANDWIRE_ENDPOINT: s.url, BRANDWIRE_CONFIG_DIR: config, BRANDWIRE_TOKEN: TEST_TOKENS.reader, BROWSER: fakeBrowser, DISPLAY: '' };
    const view = spawnCli(['knowledge', 'view', '--port', '0', '--open', '--json'], { env, processGroup: true });
    try {
      const started = JSON.parse(await firstLine(view)) as { url: string; port: number };
      const token = new URL(started.url).searchParams.get('token') ?? '';
      const since = Date.now();
      while (!existsSync(browserLog) && Date.now() - since < 10_000) await new Promise((r) => setTimeout(r, 50));
      const opened = readFileSync(browserLog, 'utf8').trim();
      expect(opened).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${started.port}/\\?code=[A-Za-z0-9_-]{43}$`));
      expect(opened).not.toContain(token);
      const first = await fetch(opened, { redirect: 'manual' });
      expect([first.status, first.headers.get('location')]).toEqual([303, '/']);
      const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      expect((await fetch(`http://127.0.0.1:${started.port}/`, { headers: { cookie } })).status).toBe(200);
      expect((await fetch(opened, { redirect: 'manual' })).status).toBe(401);
    } finally {
      process.kill(-(view.pid ?? 0), 'SIGINT');
    }
    await exited(view);
    expect(view.exitCode).toBe(0);
  });

  it('reports usage errors with exit 2', async () => {
    const cases: Array<[string[], string]> = [
      [['search', '--json'], 'nothing to search for'],
      [['search', 'refund', '--cypher', 'MATCH (n) RETURN n', '--json'], 'either words to search for or --cypher'],
      [['search', '--cypher', 'MATCH (a:Channel) RETURN a; MATCH (b:Channel) RETURN b', '--json'], '--cypher takes one statement, got 2'],
      [['query', '--json'], 'Missing 1 required arg'],
      [['query', ' ; ', '--json'], 'the query has no statement'],
      [['view', '--port', '70000', '--json'], 'less than or equal to 65535'],
      [['build', '--attachment-host', 'https://cdn.example.com/x', '--json'], '--attachment-host must be a host name'],
      [['status', '--bogus', '--json'], 'Nonexistent flag: --bogus'],
    ];
    for (const [args, message] of cases) {
      const run = await kg(args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      // a hint where there is one to give
      expect(run.json()).toMatchObject({ ok: false, error: expect.stringContaining(message), code: 'USAGE' });
    }
  });

  it("fails a build of a channel the key may not read with the service's error, adding nothing", async () => {
    const run = await kg(['build', '--channel', 'globex-kakao', '--json']);
    expect(run.code).toBe(1);
    expect(run.json()).toMatchObject({ ok: false, code: 'FORBIDDEN', status: 403 });
    expect((await kg(['status', '--json'])).json()).toMatchObject({ nodes: { Channel: 1, Conversation: 3 } });
  });

  it('needs a key for build (exit 4) and install before build or search', async () => {
    const fresh = s.configDir('kg-fresh');
    mkdirSync(fresh, { recursive: true, mode: 0o700 });
    writeFileSync(join(fresh, 'config.json'), JSON.stringify({ knowledge: { queryPort } }), { mode: 0o600 });
    const noKey = await s.run(['knowledge', 'build', '--json'], { config: fresh });
    expect(noKey.code).toBe(4);
    expect(noKey.json()).toMatchObject({ ok: false, code: 'AUTH_REQUIRED' });
    const search = await s.run(['knowledge', 'search', 'refund', '--json'], { config: fresh });
    expect(search.code).toBe(1);
    expect(search.json()).toMatchObject({ ok: false, code: 'GRAPH_MISSING' });
    const text = await s.run(['knowledge', 'search', 'refund'], { config: fresh });
    expect(text.stderr).toContain('Hint: run `brandwire knowledge install`, then `brandwire knowledge build`');
  });

  it('refuses build and query --write before install without leaving an empty graph behind', async () => {
    const fresh = s.configDir('kg-not-installed');
    mkdirSync(fresh, { recursive: true, mode: 0o700 });
    writeFileSync(join(fresh, 'config.json'), JSON.stringify({ knowledge: { queryPort } }), { mode: 0o600 });
    const build = await s.run(['knowledge', 'build', '--json'], { config: fresh, token: TEST_TOKENS.reader });
    expect(build.code).toBe(1);
    expect(build.json()).toMatchObject({ ok: false, code: 'GRAPH_MISSING' });
    const write = await s.run(['knowledge', 'query', '--write', 'CREATE NODE TABLE T(id INT64, PRIMARY KEY(id))', '--json'], { config: fresh });
    expect(write.code).toBe(1);
    expect(write.json()).toMatchObject({ ok: false, code: 'GRAPH_MISSING' });
    expect(existsSync(join(fresh, 'knowledge', 'graph.kuzu'))).toBe(false);
    const search = await s.run(['knowledge', 'search', '--cypher', 'MATCH (c:Conversation) RETURN count(c)', '--json'], { config: fresh });
    expect(search.json()).toMatchObject({ ok: false, code: 'GRAPH_MISSING' });
  });

  it('takes a response out of the graph on the next build once its message is deleted', async () => {
    const removed = await s.run(['delete', '--channel', 'acme-kakao', '--to', 'alice', '--text', 'The refund goes back to your card within three days.', '--within', '86400'], { token: TEST_TOKENS.writer });
    expect(removed.code).toBe(0);
    const build = await kg(['build']);
    expect(build.code).toBe(0);
    expect(build.stdout).toContain('Removed 1 response whose message was deleted since an earlier build.');
    const left = await kg(['search', '--cypher', 'MATCH (r:Response) RETURN r.text ORDER BY r.text', '--json']);
    expect(left.json()).toMatchObject({ rows: [['Your parcel left the depot today.']] });
    expect((await kg(['build', '--json'])).json()).toMatchObject({ ok: true, removedResponses: 0 });
  });
});
