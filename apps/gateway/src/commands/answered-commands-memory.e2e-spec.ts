import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';

/** The built command server, as the gateway daemon runs it. */
const COMMAND_SERVER = resolve(__dirname, '../../dist/commands/command-server.js');
const COMMANDS = 4_000;
/** Each answer carries 4 KB of a customer's words: one kept per command shows as about that much per command. */
const ANSWER_BYTES = 4_096;

/**
 * Runs in a process of its own with the garbage collector at hand: answers COMMANDS commands from a webhook team
 * chat over kept-alive connections, after as many to warm up, and prints the heap kept per command in between.
 */
const MEASURE = `
const { startCommandServer } = require(process.env.COMMAND_SERVER);
const http = require('node:http');
const TOKEN = 'webhook-commands-token-06';
const COMMANDS = Number(process.env.COMMANDS);
const commands = { run: async () => ({ outcome: 'done', text: 'x'.repeat(Number(process.env.ANSWER_BYTES)) + Math.random() }) };
(async () => {
  const server = await startCommandServer({ type: 'webhook', port: 0, secret: TOKEN }, commands, () => undefined);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 32 });
  const body = JSON.stringify({ text: '/cs-who acme-kakao:kim', user: 'jun' });
  const one = () => new Promise((done, fail) => {
    const headers = { authorization: 'Bearer ' + TOKEN, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const req = http.request(server.url, { method: 'POST', agent, headers }, (res) => {
      if (res.statusCode !== 200) fail(new Error('HTTP ' + res.statusCode));
      res.resume().on('end', done);
    });
    req.on('error', fail).end(body);
  });
  const answer = async (n) => { for (let i = 0; i < n; i += 32) await Promise.all(Array.from({ length: 32 }, one)); };
  const heapUsed = () => (global.gc(), global.gc(), process.memoryUsage().heapUsed);
  await answer(COMMANDS);
  const before = heapUsed();
  await answer(COMMANDS);
  const after = heapUsed();
  agent.destroy();
  await server.close();
  console.log(JSON.stringify({ keptBytesPerCommand: Math.round((after - before) / COMMANDS) }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe('the command server, answering many commands', () => {
  it('keeps no memory of the commands it answered (their answers hold customers\' words)', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '-e', MEASURE], {
      env: { ...process.env, COMMAND_SERVER, COMMANDS: String(COMMANDS), ANSWER_BYTES: String(ANSWER_BYTES) },
    });
    const { keptBytesPerCommand } = JSON.parse(stdout) as { keptBytesPerCommand: number };
    expect(keptBytesPerCommand).toBeLessThan(ANSWER_BYTES / 8);
  });
});
