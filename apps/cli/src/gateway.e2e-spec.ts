import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { type Server, createServer } from 'node:net';
import { join } from 'node:path';
import { TEST_TOKENS } from '@brandwire/client/testing';
import { type CliRun, CliSandbox, spawnCli } from './test-support/cli';
import { exited, firstLine, freePort } from './test-support/processes';

function listenOn(port: number): Promise<Server> {
  return new Promise((done, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => done(server));
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('brandwire gateway: start, status, stop and restart of the daemon, and the knowledge commands through it', () => {
  let s: CliSandbox;
  let config: string;
  let port: number;
  let statePath: string;
  let logPath: string;

  const cli = (args: readonly string[], dir = config): Promise<CliRun> => s.run(args, { config: dir, token: TEST_TOKENS.reader });
  const writeConfig = (dir: string): void => {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ knowledge: { queryPort: port } }), { mode: 0o600 });
  };

  beforeAll(async () => {
    s = await CliSandbox.start();
    config = s.configDir('gw');
    port = await freePort();
    writeConfig(config);
    statePath = join(config, 'gateway', 'gateway.json');
    logPath = join(config, 'gateway', 'gateway.log');
    await s.service.customerWrites('dora', 'Can I change the delivery address?');
    await s.run(['send', '--channel', 'acme-kakao', '--to', 'dora', '--text', 'Yes, reply with the new delivery address.'], { token: TEST_TOKENS.writer });
    expect((await cli(['knowledge', 'install'])).code).toBe(0);
    expect((await cli(['knowledge', 'build'])).code).toBe(0);
  });
  afterAll(async () => {
    // never leave a daemon behind, whatever failed
    await cli(['gateway', 'stop', '--timeout', '2']);
    await s.stop();
  });

  it('says it is not running, and stop says so too (exit 0)', async () => {
    const status = await cli(['gateway', 'status', '--json']);
    expect(status.code).toBe(0);
    expect(status.json()).toEqual({
      ok: true, running: false, pid: null, port, startedAt: null, uptimeSeconds: null, answers: false, viewUrl: null, relays: [], commandsUrl: null, graphPath: join(config, 'knowledge', 'graph.kuzu'), logPath, statePath,
    });
    const stop = await cli(['gateway', 'stop']);
    expect({ code: stop.code, stdout: stop.stdout }).toEqual({ code: 0, stdout: 'The gateway is not running.\n' });
  });

  it('starts the daemon detached, writes its state and log; a second start says it is already running', async () => {
    const start = await cli(['gateway', 'start', '--json']);
    expect({ code: start.code, stderr: start.stderr }).toEqual({ code: 0, stderr: '' });
    const started = start.json<{ pid: number }>();
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as { queryToken: string };
    expect(state).toMatchObject({ pid: started.pid, port, graph: join(config, 'knowledge', 'graph.kuzu'), queryToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
    expect(statSync(statePath).mode & 0o777).toBe(0o600);
    const viewUrl = `http://127.0.0.1:${port}/?token=${state.queryToken}`;
    expect(started).toEqual({ ok: true, started: true, pid: expect.any(Number), port, startedAt: expect.any(String), viewUrl, relays: [], commandsUrl: null, statePath, logPath, graphPath: join(config, 'knowledge', 'graph.kuzu') });
    expect(isAlive(started.pid)).toBe(true);
    expect(readFileSync(logPath, 'utf8')).toContain(`gateway started: pid ${started.pid}`);
    expect(readFileSync(logPath, 'utf8')).not.toContain(state.queryToken);
    // nothing of the graph without the token
    const refused = await fetch(`http://127.0.0.1:${port}/knowledge/status`);
    expect([refused.status, await refused.json()]).toEqual([401, expect.objectContaining({ ok: false, code: 'UNAUTHORIZED' })]);

    const again = await cli(['gateway', 'start']);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(new RegExp(`^The gateway is already running\\.\\npid: +${started.pid}\\nport: +${port}\\nrelays: +none \\(set a team-chat sink or a CRM with \`brandwire setup\`\\)\\n`));
    expect(again.stderr).toBe('');
    expect(again.stdout).toMatch(new RegExp(`^view: +${viewUrl.replace(/[.?]/g, '\\$&')}$`, 'm'));

    const status = await cli(['gateway', 'status', '--json']);
    expect(status.json()).toMatchObject({ ok: true, running: true, pid: started.pid, port, answers: true, uptimeSeconds: expect.any(Number), viewUrl });
    const text = await cli(['gateway', 'status']);
    expect(text.stdout).toMatch(new RegExp(`^The gateway is running\\.\\npid: +${started.pid}\\nport: +${port}\\nuptime: +\\d+ s\\nrelays: +none\\n`));
    expect(text.stdout).toMatch(new RegExp(`^view: +${viewUrl.replace(/[.?]/g, '\\$&')}$`, 'm'));
    // the page's way in: the token for a session cookie (never the token itself), which the page's requests then carry
    const login = await fetch(viewUrl, { redirect: 'manual' });
    expect([login.status, login.headers.get('location')]).toEqual([303, '/']);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(new RegExp(`^brandwire-knowledge-${port}=[A-Za-z0-9_-]{43}$`));
    expect(cookie).not.toContain(state.queryToken);
    expect((await fetch(`http://127.0.0.1:${port}/`, { headers: { cookie } })).status).toBe(200);
  });

  it('two starts at the same moment: one starts the gateway, the other finds it running (both exit 0)', async () => {
    const stopped = await cli(['gateway', 'stop', '--json']);
    expect(stopped.json()).toMatchObject({ ok: true, stopped: true });
    const both = await Promise.all([cli(['gateway', 'start', '--json']), cli(['gateway', 'start', '--json'])]);
    expect(both.map((run) => [run.code, run.stderr])).toEqual([[0, ''], [0, '']]);
    const answers = both.map((run) => run.json<{ started: boolean; pid: number }>());
    expect(answers.map((a) => a.started).sort()).toEqual([false, true]);
    expect(answers[0]?.pid).toBe(answers[1]?.pid);
    expect(existsSync(`${statePath}.starting`)).toBe(false);
  });

  it('serves status, search and read-only query to the knowledge commands while it holds the graph, with the token of its state file', async () => {
    const status = await cli(['knowledge', 'status', '--json']);
    expect(status.json()).toMatchObject({ ok: true, installed: true, via: 'gateway', nodes: { Inquiry: 1, Response: 1 } });
    // a config folder with no graph of its own, only the gateway's port: that gateway takes only its own folder's
    // token, so the folder is told whose gateway answers there instead of reading through it
    const elsewhere = s.configDir('gw-no-graph');
    writeConfig(elsewhere);
    const { pid } = JSON.parse(readFileSync(statePath, 'utf8')) as { pid: number };
    const elsewhereStatus = await cli(['knowledge', 'status', '--json'], elsewhere);
    expect(elsewhereStatus.code).toBe(1);
    expect(elsewhereStatus.json()).toEqual({
      ok: false,
      code: 'GATEWAY_UNAUTHORIZED',
      error: `this config folder has no knowledge graph of its own, and the gateway of another config folder (pid ${pid}, state file ${statePath}) answers on its query port ${port}: that gateway takes only the access token in its own state file`,
      port,
      gatewayPid: pid,
      gatewayStatePath: statePath,
      hint: expect.stringContaining("run the command with that gateway's config folder (BRANDWIRE_CONFIG_DIR)"),
    });
    const elsewhereSearch = await cli(['knowledge', 'search', 'delivery address'], elsewhere);
    expect(elsewhereSearch.code).toBe(1);
    expect(elsewhereSearch.stderr).toMatch(/\(GATEWAY_UNAUTHORIZED\)\nHint: run the command with that gateway's config folder \(BRANDWIRE_CONFIG_DIR\)/);
    const search = await cli(['knowledge', 'search', 'delivery address', '--json']);
    expect(search.code).toBe(0);
    expect(search.json()).toMatchObject({ ok: true, hits: expect.arrayContaining([expect.objectContaining({ kind: 'inquiry', text: 'Can I change the delivery address?' })]) });
    // the gateway answers as many hits as the tool's --limit takes, and no more: 201 is a usage error on both paths
    const most = await cli(['knowledge', 'search', 'delivery', '--limit', '200', '--json']);
    expect({ code: most.code, hits: most.json<{ hits: unknown[] }>().hits.length }).toEqual({ code: 0, hits: 2 });
    const tooMany = await cli(['knowledge', 'search', 'delivery', '--limit', '201', '--json']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.json()).toEqual({ ok: false, error: 'Parsing --limit; Expected an integer less than or equal to 200 but received: 201', code: 'USAGE', hint: 'see --help for the flags and arguments' });
    const cypher = await cli(['knowledge', 'search', '--cypher', 'MATCH (c:Customer) RETURN c.userKey AS who, count(*) AS n', '--json']);
    expect(cypher.json()).toEqual({ ok: true, columns: ['who', 'n'], types: ['STRING', 'INT64'], rows: [['dora', 1]] });
    const query = await cli(['knowledge', 'query', 'MATCH (r:Response) RETURN r.text; MATCH (x:Nope) RETURN x', '--json']);
    expect(query.code).toBe(1);
    expect(query.json()).toMatchObject({ ok: false, code: 'BAD_QUERY', lines: ['#1 ok (1 row)', expect.stringMatching(/^#2 FAILED: .*Nope/)] });
    const write = await cli(['knowledge', 'search', '--cypher', "CREATE (:Channel {key: 'x'})", '--json']);
    expect(write.json()).toMatchObject({ ok: false, code: 'BAD_QUERY', error: expect.stringMatching(/read-only/i) });
    for (const args of [['query', 'RETURN $p'], ['search', '--cypher', 'RETURN $p']]) {
      const parameter = await cli(['knowledge', ...args, '--json']);
      expect({ args, code: parameter.code, json: parameter.json() }).toEqual({
        args,
        code: 2,
        json: { ok: false, code: 'MISSING_PARAMETER', error: 'Missing query parameter: $p', hint: 'write the value into the statement: the tool passes no parameters' },
      });
    }
    // each statement of a batch is one call to the gateway: the batch's limit holds for them all
    const rows = 'UNWIND range(1, 60000) AS x RETURN x';
    const overLimit = await cli(['knowledge', 'query', `${rows}; ${rows}`, '--json']);
    expect(overLimit.code).toBe(1);
    expect(overLimit.json()).toMatchObject({ ok: false, code: 'BAD_QUERY', lines: ['#1 ok (60000 rows)', expect.stringMatching(/^#2 FAILED: It ran, but its result is not shown: it takes the batch to 120,000 rows, over the 100,000 a batch may answer in all/)] });

    const view = spawnCli(['knowledge', 'view', '--port', '0', '--json'], { env: { BRANDWIRE_ENDPOINT: s.url, BRANDWIRE_CONFIG_DIR: config } });
    try {
      const started = JSON.parse(await firstLine(view)) as { url: string; via: string; port: number };
      expect(started).toMatchObject({ ok: true, via: 'gateway' });
      // the view's own token, not the gateway's
      const viewToken = new URL(started.url).searchParams.get('token') ?? '';
      expect(viewToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(readFileSync(statePath, 'utf8')).not.toContain(viewToken);
      const rows = await fetch(`http://127.0.0.1:${started.port}/cypher?q=${encodeURIComponent('MATCH (c:Customer) RETURN c.userKey')}`, { headers: { authorization: `Bearer ${viewToken}` } });
      expect(await rows.json()).toMatchObject({ ok: true, rows: [['dora']] });
    } finally {
      view.kill('SIGINT');
    }
    await exited(view);
    expect(view.exitCode).toBe(0);
  });

  it('refuses install, build and query --write while it runs, naming the gateway and `brandwire gateway stop`', async () => {
    const state = JSON.parse(readFileSync(statePath, 'utf8')) as { pid: number };
    const install = await cli(['knowledge', 'install']);
    expect(install.code).toBe(1);
    expect(install.stderr).toMatch(/^Error: The knowledge graph at .* is in use by the gateway \(pid \d+, read-only\).* \(GRAPH_LOCKED\)\nHint: run `brandwire gateway stop` first, then this command again\n$/);
    const build = await cli(['knowledge', 'build', '--json']);
    expect(build.code).toBe(1);
    expect(build.json()).toMatchObject({ ok: false, code: 'GRAPH_LOCKED', error: expect.stringContaining(`in use by the gateway (pid ${state.pid}`), holders: [expect.objectContaining({ pid: state.pid, description: 'the gateway' })] });
    const text = await cli(['knowledge', 'build']);
    expect(text.stderr).toMatch(/^Error: The knowledge graph at .* is in use by the gateway \(pid \d+, read-only\).* \(GRAPH_LOCKED\)\nHint: run `brandwire gateway stop` first, then this command again\n$/);
    const write = await cli(['knowledge', 'query', '--write', "CREATE (:Channel {key: 'x'})"]);
    expect(write.code).toBe(1);
    expect(write.stderr).toContain('Hint: run `brandwire gateway stop` first');
  });

  it('restarts with a new pid, and stops: the daemon exits, its state file goes, the knowledge commands open the graph again', async () => {
    const before = (JSON.parse(readFileSync(statePath, 'utf8')) as { pid: number }).pid;
    // relay settings stored by setup: the restarted gateway relays to them
    writeFileSync(join(config, 'config.json'), JSON.stringify({ knowledge: { queryPort: port }, gateway: { crm: { url: 'https://crm.example.invalid/hook' } } }), { mode: 0o600 });
    const restart = await cli(['gateway', 'restart', '--json']);
    writeConfig(config);
    expect({ code: restart.code, stderr: restart.stderr }).toEqual({ code: 0, stderr: '' });
    expect(restart.json()).toMatchObject({ relays: ['CRM'] });
    const after = restart.json<{ pid: number; stoppedPid: number; started: boolean }>();
    expect(after).toMatchObject({ ok: true, started: true, stoppedPid: before, port });
    expect(after.pid).not.toBe(before);
    expect(isAlive(before)).toBe(false);

    const stop = await cli(['gateway', 'stop', '--json']);
    expect(stop.json()).toEqual({ ok: true, stopped: true, pid: after.pid, killed: false, statePath });
    expect(isAlive(after.pid)).toBe(false);
    expect(existsSync(statePath)).toBe(false);
    expect(readFileSync(logPath, 'utf8')).toMatch(/gateway stopped \(SIGTERM\)\n$/);
    expect((await cli(['knowledge', 'status', '--json'])).json()).toMatchObject({ via: 'graph' });
  });

  it('removes the state file of a gateway that is gone', async () => {
    const gone = spawn(process.execPath, ['-e', '0']);
    await exited(gone);
    writeFileSync(statePath, JSON.stringify({ pid: gone.pid, port, graph: join(config, 'knowledge', 'graph.kuzu'), startedAt: new Date().toISOString() }));
    const status = await cli(['gateway', 'status', '--json']);
    expect(status.json()).toMatchObject({ ok: true, running: false, pid: null });
    expect(existsSync(statePath)).toBe(false);
  });

  it('finds a running gateway whose state file is damaged by its command line, and stops it', async () => {
    const start = await cli(['gateway', 'start', '--json']);
    const { pid } = start.json<{ pid: number }>();
    writeFileSync(statePath, '{"pid": 12');
    const status = await cli(['gateway', 'status', '--json']);
    // it answers, though only to its token, which was in the file
    expect(status.json()).toMatchObject({ ok: true, running: true, pid, port, answers: true, viewUrl: null });
    // its start time read from the process: seconds ago, not now
    const { startedAt } = status.json<{ startedAt: string }>();
    expect(Date.now() - Date.parse(startedAt)).toBeGreaterThanOrEqual(0);
    expect(Date.now() - Date.parse(startedAt)).toBeLessThan(60_000);
    expect(Math.abs(Date.parse(startedAt) - Date.parse(start.json<{ startedAt: string }>().startedAt))).toBeLessThan(2_000);
    // what it relays and where it takes commands were only in the file: not known, rather than none
    expect(status.json()).not.toHaveProperty('relays');
    expect(status.json()).not.toHaveProperty('commandsUrl');
    const text = await cli(['gateway', 'status']);
    expect(text.stdout).toMatch(/^relays: +unknown \(its state file is damaged or gone\)$/m);
    expect(text.stdout).toMatch(/^team-chat commands: +unknown \(its state file is damaged or gone\)$/m);
    expect(text.stdout).toMatch(/^view: +unknown \(its state file, which holds its token, is damaged or gone: `brandwire gateway restart` makes a new one\)$/m);
    const again = await cli(['gateway', 'start', '--json']);
    expect(again.json()).toMatchObject({ ok: true, started: false, pid });
    expect(again.json()).not.toHaveProperty('relays');
    expect((await cli(['gateway', 'start'])).stdout).toMatch(/^relays: +unknown \(its state file is damaged or gone\)$/m);
    const stop = await cli(['gateway', 'stop', '--json']);
    expect(stop.json()).toEqual({ ok: true, stopped: true, pid, killed: false, statePath });
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(statePath)).toBe(false);
  });

  it('finds a running gateway whose state file is gone by its command line: status, start, the knowledge commands and stop see it', async () => {
    const { pid } = (await cli(['gateway', 'start', '--json'])).json<{ pid: number }>();
    rmSync(statePath);
    const status = await cli(['gateway', 'status', '--json']);
    expect(status.json()).toMatchObject({ ok: true, running: true, pid, port, answers: true, viewUrl: null });
    expect(status.json()).not.toHaveProperty('relays');
    expect((await cli(['gateway', 'start', '--json'])).json()).toMatchObject({ ok: true, started: false, pid, viewUrl: null });
    // its token went with the file: the graph is read beside it, read-only, saying why
    expect((await cli(['knowledge', 'status', '--json'])).json()).toMatchObject({ via: 'graph', tokenlessGatewayPid: pid, nodes: { Inquiry: 1, Response: 1 } });
    expect((await cli(['knowledge', 'status'])).stdout).toContain(`read through:      the graph file, read-only beside the gateway (pid ${pid}), whose state file with its access token is damaged or gone (\`brandwire gateway restart\` writes a new one)\n`);
    const stop = await cli(['gateway', 'stop', '--json']);
    expect(stop.json()).toEqual({ ok: true, stopped: true, pid, killed: false, statePath });
    expect(isAlive(pid)).toBe(false);
    expect((await cli(['knowledge', 'build', '--json'])).code).toBe(0);
  });

  it('finds a running gateway whose state file names another live process (its pid reused) by its command line, and never signals that process', async () => {
    const { pid } = (await cli(['gateway', 'start', '--json'])).json<{ pid: number }>();
    const other = spawn('sleep', ['60']);
    try {
      const state = JSON.parse(readFileSync(statePath, 'utf8')) as Record<string, unknown>;
      writeFileSync(statePath, JSON.stringify({ ...state, pid: other.pid }));
      const status = await cli(['gateway', 'status', '--json']);
      expect(status.json()).toMatchObject({ ok: true, running: true, pid, port, answers: true });
      expect(status.json()).not.toHaveProperty('relays');
      expect(existsSync(statePath)).toBe(true);
      const stop = await cli(['gateway', 'stop', '--json']);
      expect(stop.json()).toEqual({ ok: true, stopped: true, pid, killed: false, statePath });
      expect(isAlive(pid)).toBe(false);
      expect(isAlive(other.pid as number)).toBe(true);
      expect(existsSync(statePath)).toBe(false);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('knowledge status says the graph file was read beside a gateway that runs but did not answer (paused)', async () => {
    const { pid } = (await cli(['gateway', 'start', '--json'])).json<{ pid: number }>();
    process.kill(pid, 'SIGSTOP');
    try {
      const json = await cli(['knowledge', 'status', '--json']);
      expect(json.json()).toMatchObject({ ok: true, installed: true, via: 'graph', unansweredGatewayPid: pid, nodes: { Inquiry: 1, Response: 1 } });
      const text = await cli(['knowledge', 'status']);
      expect(text.stdout).toContain(`read through:      the graph file, read-only beside the gateway (pid ${pid}), which runs but whose query API did not answer just now\n`);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect((await cli(['gateway', 'stop', '--json'])).json()).toMatchObject({ stopped: true, pid });
    const stopped = await cli(['knowledge', 'status', '--json']);
    expect(stopped.json()).toMatchObject({ via: 'graph' });
    expect(stopped.json()).not.toHaveProperty('unansweredGatewayPid');
    expect((await cli(['knowledge', 'status'])).stdout).toContain('read through:      the graph file (the gateway is not running)\n');
  });

  it('kills a gateway that ignores SIGTERM once --timeout has passed', async () => {
    // stands in for a hung gateway: the same --state argument on its command line, deaf to SIGTERM
    const hung = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000); process.stdout.write('ready')", '--', '--state', statePath], { stdio: ['ignore', 'pipe', 'ignore'] });
    await new Promise((done) => hung.stdout.once('data', done));
    writeFileSync(statePath, JSON.stringify({ pid: hung.pid, port, graph: join(config, 'knowledge', 'graph.kuzu'), startedAt: new Date().toISOString() }));
    const stop = await cli(['gateway', 'stop', '--timeout', '1', '--json']);
    expect(stop.json()).toEqual({ ok: true, stopped: true, pid: hung.pid, killed: true, statePath });
    await exited(hung);
    expect(hung.signalCode).toBe('SIGKILL');
    expect(existsSync(statePath)).toBe(false);
  });

  it('does not start when another program has the port, and says so (PORT_IN_USE)', async () => {
    const squatter = await listenOn(port);
    try {
      const start = await cli(['gateway', 'start', '--json']);
      expect(start.code).toBe(1);
      expect(start.json()).toEqual({ ok: false, code: 'PORT_IN_USE', error: `port ${port} on 127.0.0.1 is taken by another program`, port, hint: 'stop that program, or choose another port: `brandwire setup <key> --query-port <n>`' });
      const text = await cli(['gateway', 'start']);
      expect(text.stderr).toBe(`Error: port ${port} on 127.0.0.1 is taken by another program (PORT_IN_USE)\nHint: stop that program, or choose another port: \`brandwire setup <key> --query-port <n>\`\n`);
      expect(existsSync(statePath)).toBe(false);
    } finally {
      await new Promise((done) => squatter.close(done));
    }
  });

  it('refuses install and build while a gateway started before the graph existed runs, and tells to stop it to install', async () => {
    const early = s.configDir('gw-early');
    mkdirSync(early, { recursive: true, mode: 0o700 });
    writeFileSync(join(early, 'config.json'), JSON.stringify({ knowledge: { queryPort: await freePort() } }), { mode: 0o600 });
    expect((await cli(['gateway', 'start', '--json'], early)).json()).toMatchObject({ ok: true, started: true });
    try {
      for (const command of ['install', 'build']) {
        const refused = await cli(['knowledge', command, '--json'], early);
        expect(refused.code).toBe(1);
        expect(refused.json()).toMatchObject({ ok: false, code: 'GRAPH_LOCKED', error: expect.stringContaining('started before the knowledge graph existed') });
      }
      expect(existsSync(join(early, 'knowledge', 'graph.kuzu'))).toBe(false);
      const text = await cli(['knowledge', 'install'], early);
      expect(text.stderr).toContain('Hint: run `brandwire gateway stop` first, then this command again');

      // reading through that gateway: not installed, and the way there starts with stopping it (install is refused while it runs)
      const installSteps = 'run `brandwire gateway stop`, then `brandwire knowledge install` and `brandwire knowledge build`, then `brandwire gateway start`';
      const search = await cli(['knowledge', 'search', '--cypher', 'RETURN 1'], early);
      expect(search.code).toBe(1);
      expect(search.stdout).toBe('');
      expect(search.stderr).toMatch(/^Error: The knowledge graph at .* is not installed yet: .* \(NOT_INSTALLED\)\n/);
      expect(search.stderr.split('\n').at(-2)).toBe(`Hint: ${installSteps}`);
      const status = await cli(['knowledge', 'status'], early);
      expect(status.code).toBe(0);
      expect(status.stdout).toContain(`installed:         no (${installSteps})\n`);
      expect(status.stdout).toContain('read through:      the gateway');
    } finally {
      await cli(['gateway', 'stop', '--timeout', '2'], early);
    }
    expect((await cli(['knowledge', 'install', '--json'], early)).json()).toMatchObject({ ok: true });
  });

  it('reports usage errors with exit 2', async () => {
    for (const args of [['gateway', 'start', '--bogus'], ['gateway', 'stop', '--timeout', '0'], ['gateway', 'status', 'extra']]) {
      const run = await cli([...args, '--json']);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.json()).toMatchObject({ ok: false, code: 'USAGE' });
    }
  });
});
