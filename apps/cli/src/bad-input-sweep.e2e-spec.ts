import { type ChildProcess, execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TEST_TOKENS, writePng } from '@brandwire/client/testing';
import { CliSandbox, RUN_JS, spawnCli } from './test-support/cli';

/**
 * The bad-input sweep: every command of the manifest, every flag and argument given what a person gets wrong (a
 * wrong flag, a missing one, a missing value, a non-number, a number out of range, an unknown option, an empty
 * string, 100,000 characters, control characters, a path that does not exist or is no file, an extra argument, an
 * unknown subcommand), with and without --json. Each must end within 15 s with a documented exit code, never a
 * stack trace, with one `Error:` line (and maybe a `Hint:` line) on stderr, or with --json exactly one line of JSON on
 * stdout; the inputs that are always wrong must be usage errors (exit 2) naming the flag.
 *
 * Runs bin/run.js (the tool itself, without the launcher's extra process) to keep the sweep fast.
 */

interface ManifestFlag {
  name: string;
  type: 'boolean' | 'option';
  options?: string[];
  required?: boolean;
  multiple?: boolean;
  allowNo?: boolean;
  helpValue?: string;
}

interface ManifestCommand {
  id: string;
  pluginName: string;
  flags: Record<string, ManifestFlag>;
  args: Record<string, { name: string; required?: boolean }>;
}

/** How to run a command for the sweep: a command line that is right, from which each case changes one thing. */
interface Plan {
  base: string[];
  /** another right command line when the flag varied excludes or needs others */
  baseFor?: Record<string, string[]>;
  /** it starts something that lasts or installs: only inputs refused while parsing */
  parseOnly?: true;
  /** the service at an address where nothing listens (a login pairing would otherwise wait) */
  offline?: true;
  /** no BRANDWIRE_TOKEN (the key is what the command takes) */
  noToken?: true;
}

const CH = ['--channel', 'acme-kakao'];
const TO = ['--to', 'u-sweep'];

const manifest = JSON.parse(readFileSync(resolve(__dirname, '../oclif.manifest.json'), 'utf8')) as { commands: Record<string, ManifestCommand> };
const commands = Object.values(manifest.commands).filter((c) => c.pluginName === '@brandwire/cli');

interface CompiledFlag {
  min?: number;
  max?: number;
  options?: readonly string[];
  parse?: (input: string, context: unknown, options: unknown) => Promise<unknown>;
}

/** The flags of the compiled command (the manifest leaves out an integer flag's min and max, and its parse). */
function compiledFlags(id: string): Record<string, CompiledFlag> {
  const loaded = require(resolve(__dirname, '../dist/commands', ...id.split(':'))) as { default: { flags: Record<string, CompiledFlag> } };
  return loaded.default.flags;
}

/** One number per parse function: flags made by the same builder (channelFlag, toFlag, ...) share theirs. */
const parseIds = new Map<unknown, number>();

/**
 * What oclif's parser refuses before any code of the command runs, the same in every command whose flag has the
 * same name, parse function, options and range: a key naming that, else undefined.
 */
async function refusedWhileParsing(name: string, flag: CompiledFlag, value: string): Promise<string | undefined> {
  const refused = (flag.options !== undefined && !flag.options.includes(value)) || (await Promise.resolve(flag.parse?.(value, {}, flag)).then(() => false, () => true));
  if (!refused) return undefined;
  if (!parseIds.has(flag.parse)) parseIds.set(flag.parse, parseIds.size);
  return `${name} ${JSON.stringify({ parse: parseIds.get(flag.parse), options: flag.options, min: flag.min, max: flag.max })} ${value}`;
}

const LONG = 'x'.repeat(100_000);
const CONTROL = 'a\u0001b\u001b[31mc\u0007d\u009be';
const SHOWN_VALUES = new Map([[LONG, '<100000 x>'], [CONTROL, '<control characters>']]);

type Expectation = 'usage' | 'clean';

interface Case {
  id: string;
  argv: string[];
  expect: Expectation;
  /** what a usage error must name: the flag (`--max`), the argument or the word given */
  names?: string;
  /** refused while parsing, before the command does anything */
  atParse: boolean;
  /**
   * The same flag definition given the same value, refused by oclif's parser before any command code runs, alike in
   * every command that has it (the --channel of 27 commands): run for the first of them only, to keep the sweep's time.
   */
  sameEverywhere?: string;
  /** run only with --json or only without (both when left out) */
  only?: 'json' | 'text';
}

/**
 * 100,000 characters are checked with --json (the message shortened is the same text in both modes), control
 * characters without it (JSON escapes them; a terminal shows what is printed raw).
 */
const onlyFor = (value: string): Pick<Case, 'only'> => (value === LONG ? { only: 'json' } : value === CONTROL ? { only: 'text' } : {});

interface Fixtures {
  dir: string;
  fifo: string;
  unreadable: string | undefined;
  png: string;
  text: string;
  schedule: string;
}

function plans(f: Fixtures, admin: string): Record<string, Plan> {
  const offline = { offline: true as const };
  return {
    block: { base: [...CH, ...TO] },
    unblock: { base: [...CH, ...TO] },
    'personal-info': { base: [...CH, ...TO] },
    'end-with-bot': { base: [...CH, ...TO] },
    // without an AI model set up, an --ask ends before anything is asked
    chatbot: { base: [...CH, '--ask', 'hi'] },
    delete: { base: [...CH, ...TO, '--serial', 's-none'], baseFor: { text: [...CH, ...TO, '--text', 'hi'], within: [...CH, ...TO, '--text', 'hi', '--within', '60'] } },
    env: { base: [] },
    help: { base: ['send'] },
    history: { base: [...CH] },
    login: { base: ['--console', '--endpoint', 'http://127.0.0.1:9'], ...offline, noToken: true },
    logout: { base: [], parseOnly: true },
    profile: { base: [...CH] },
    rooms: { base: [...CH] },
    send: { base: [...CH, ...TO, '--text', 'hi'], baseFor: { 'rich-json': [...CH, ...TO], file: [...CH, ...TO], 'image-style': [...CH, ...TO, '--file', f.png] } },
    setup: { base: [admin, '--dry-run'], noToken: true },
    sysmsg: { base: [...CH] },
    whoami: { base: [] },
    'chat:activate': { base: [...CH] },
    'chat:deactivate': { base: ['--channel', 'acme-naver'] },
    'keys:create': { base: ['sweep-key', '--scope', 'BrandRead'] },
    'keys:list': { base: [] },
    'keys:revoke': { base: ['key_none'] },
    'gateway:start': { base: [], parseOnly: true },
    'gateway:restart': { base: [], parseOnly: true },
    'gateway:status': { base: [] },
    'gateway:stop': { base: [] },
    'knowledge:build': { base: [...CH] },
    'knowledge:install': { base: [], parseOnly: true },
    'knowledge:query': { base: ['MATCH (n) RETURN count(n)'] },
    'knowledge:search': { base: ['refund'], baseFor: { cypher: [] } },
    'knowledge:status': { base: [] },
    'knowledge:view': { base: [], parseOnly: true },
    'model:list': { base: ['--provider', 'ollama', '--url', 'http://127.0.0.1:9'] },
    'model:set': { base: ['llama3', '--provider', 'ollama', '--url', 'http://127.0.0.1:9', '--no-check'] },
    'schedule:get': { base: [...CH] },
    'schedule:set': { base: [...CH, '--json', f.schedule] },
    'upload:image': { base: [...CH, '--file', f.png] },
    'upload:file': { base: [...CH, '--file', f.text] },
    'upload:audio': { base: [...CH, '--file', f.text] },
    'upload:video': { base: [...CH, '--file', f.text] },
    'webhook-domain:get': { base: [...CH] },
    'webhook-domain:set': { base: [...CH, '--url', 'http://127.0.0.1:9/bw'] },
  };
}

/** The command line without a flag (and its value). */
function without(argv: readonly string[], flag: ManifestFlag): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${flag.name}`) {
      if (flag.type === 'option') i++;
      continue;
    }
    out.push(argv[i] as string);
  }
  return out;
}

/** Flags whose empty value is one the tool takes: `setup --ai-instructions ""` removes the instructions. */
const EMPTY_MEANS_NONE = new Set(['ai-instructions']);

const isNumber = (flag: ManifestFlag) => flag.helpValue === '<n>' || flag.helpValue === '<seconds>';
const isFile = (flag: ManifestFlag) => flag.helpValue === '<file>' || flag.helpValue === '<path>';
const isUrl = (flag: ManifestFlag) => flag.helpValue === '<url>';

/** The values that are always wrong for a flag, and those it may take or refuse (but cleanly). */
function badValues(flag: ManifestFlag, range: { min?: number; max?: number }, f: Fixtures): Array<{ value: string; expect: Expectation }> {
  const emptyMeansNone = EMPTY_MEANS_NONE.has(flag.name);
  const always: string[] = emptyMeansNone ? [] : [''];
  const maybe: string[] = emptyMeansNone ? [''] : [];
  if (isNumber(flag)) {
    always.push('abc', '1.5', LONG, CONTROL);
    if (range.min !== undefined) always.push(String(range.min - 1));
    if (range.max !== undefined) always.push(String(range.max + 1));
    else maybe.push('99999999999999999999');
  } else if (flag.options) {
    always.push('bogus', LONG, CONTROL);
  } else if (isFile(flag)) {
    always.push(join(f.dir, 'no-such-file.json'), f.dir, f.fifo, LONG, CONTROL);
    if (f.unreadable) always.push(f.unreadable);
  } else if (isUrl(flag)) {
    always.push('not a url', 'ftp://127.0.0.1/x', LONG, CONTROL);
  } else {
    maybe.push(LONG, CONTROL);
  }
  return [...always.map((value) => ({ value, expect: 'usage' as const })), ...maybe.map((value) => ({ value, expect: 'clean' as const }))];
}

async function casesOf(command: ManifestCommand, plan: Plan, f: Fixtures): Promise<Case[]> {
  const words = command.id.split(':');
  const cases: Case[] = [];
  const add = (argv: string[], expect: Expectation, names: string | undefined, atParse: boolean, sameEverywhere?: string, only: Pick<Case, 'only'> = {}) =>
    cases.push({ id: command.id, argv: [...words, ...argv], expect, atParse, ...(names ? { names } : {}), ...(sameEverywhere ? { sameEverywhere } : {}), ...only });
  const compiled = compiledFlags(command.id);
  add([...plan.base, '--nope'], 'usage', '--nope', true, '--nope');
  // help takes any words (a topic and a command)
  const hasArgs = Object.keys(command.args ?? {}).length > 0;
  if (command.id !== 'help') add([...plan.base, 'extra-word'], 'usage', 'extra-word', true, hasArgs ? undefined : 'extra-word');
  for (const flag of Object.values(command.flags)) {
    if (flag.name === 'json' && command.id !== 'schedule:set') continue;
    const base = plan.baseFor?.[flag.name] ?? plan.base;
    const rest = without(base, flag);
    const name = `--${flag.name}`;
    const { type, options, helpValue, multiple, allowNo } = flag;
    const { min, max } = compiled[flag.name] ?? {};
    const same = (variant: string) => `${name} ${JSON.stringify({ type, options, helpValue, multiple, allowNo, min, max })} ${variant}`;
    if (flag.type === 'boolean') {
      add([...rest, `${name}=yes`], 'usage', name, true, same('=yes'));
      if (!flag.allowNo) add([...rest, `--no-${flag.name}`], 'usage', `--no-${flag.name}`, true, same('--no-'));
      continue;
    }
    add([...rest, name], 'usage', name, true, same('no value'));
    if (flag.required) add(rest, 'usage', name, true, same('left out'));
    if (!flag.multiple) add([...rest, name, 'a', name, 'b'], 'usage', name, true, same('twice'));
    for (const { value, expect } of badValues(flag, compiled[flag.name] ?? {}, f)) {
      const refused = await refusedWhileParsing(name, compiled[flag.name] ?? {}, value);
      add([...rest, name, value], expect, expect === 'usage' ? name : undefined, refused !== undefined, refused, onlyFor(value));
    }
  }
  for (const arg of Object.values(command.args ?? {})) {
    if (command.id === 'help') continue;
    const given = plan.base.filter((word) => !word.startsWith('--'))[0];
    // the argument is the first word of the base (setup's key, keys create's name, ...)
    const rest = plan.base.slice(plan.base.indexOf(given as string) + 1);
    if (arg.required) add(rest, 'usage', arg.name, true);
    // what an empty argument is refused with need not name it ("nothing to search for")
    add(['', ...rest], 'usage', undefined, false);
    add([LONG, ...rest], 'clean', undefined, false, undefined, onlyFor(LONG));
    add([CONTROL, ...rest], 'clean', undefined, false, undefined, onlyFor(CONTROL));
  }
  return plan.parseOnly ? cases.filter((c) => c.atParse && c.expect === 'usage') : cases;
}

function topicCases(): Case[] {
  const topics = [...new Set(commands.map((c) => c.id.split(':')).filter((w) => w.length > 1).map((w) => w[0] as string))];
  return [
    ...topics.map((topic): Case => ({ id: topic, argv: [topic, 'nosuch'], expect: 'usage', names: 'nosuch', atParse: true })),
    { id: 'help', argv: ['help', 'nosuch'], expect: 'usage', names: 'nosuch', atParse: true },
    { id: 'help', argv: ['help', 'send', 'extra-word'], expect: 'usage', names: 'extra-word', atParse: true },
  ];
}

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  hung: boolean;
}

// far past what the slowest refusal takes on a busy machine of 2 cores, so that only a hang reaches it
const HANG_MS = 30_000;

function run(argv: string[], env: Record<string, string | undefined>): Promise<Run> {
  const child: ChildProcess = spawnCli(argv, { env, processGroup: true }, RUN_JS);
  let stdout = '';
  let stderr = '';
  let hung = false;
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin?.end();
  const timer = setTimeout(() => {
    hung = true;
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  }, HANG_MS);
  return new Promise((done) => {
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, hung });
    });
  });
}

const STACK = /^\s+at \S.*(:\d+:\d+\)?|\(native\)|<anonymous>\)?)$|node:internal|\n\s+at async /m;
const INTERNALS = /TypeError|ReferenceError|RangeError|SyntaxError|Cannot read properties|is not a function|undefined is not|\[object Object\]|ModuleLoadError|EEXIT|The following errors? occurred|See more help with|\S+:\S+ not found/;
// eslint-disable-next-line no-control-regex -- the control characters that must not reach a terminal raw
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const LONGEST_MESSAGE = 1_000;

/** What is wrong with a run: nothing when it is what a person may expect. */
function problemsOf(c: Case, json: boolean, r: Run): string[] {
  const problems: string[] = [];
  if (r.hung) return [`did not end within ${HANG_MS / 1000} s`];
  if (r.code === null) return [`ended by ${r.signal ?? 'a signal'}`];
  if (![0, 1, 2, 3, 4].includes(r.code)) problems.push(`exit ${r.code} is not a documented exit code`);
  const both = `${r.stdout}\n${r.stderr}`;
  if (STACK.test(both)) problems.push('a stack trace');
  if (INTERNALS.test(both)) problems.push("an internal or oclif message");
  if (RAW_CONTROL.test(r.stderr) || (!json && RAW_CONTROL.test(r.stdout))) problems.push('raw control characters in the output');
  let message: string | undefined;
  if (json) {
    const lines = r.stdout.split('\n');
    if (lines.length !== 2 || lines[1] !== '') problems.push(`stdout is not one line of JSON (${lines.length - 1} lines)`);
    else {
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = JSON.parse(lines[0] as string) as Record<string, unknown>;
      } catch {
        problems.push('stdout is not JSON');
      }
      if (parsed && r.code !== 0) {
        if (parsed['ok'] !== false || typeof parsed['error'] !== 'string' || parsed['error'] === '' || typeof parsed['code'] !== 'string') problems.push('the JSON is not {ok:false,error,code}');
        message = typeof parsed['error'] === 'string' ? parsed['error'] : undefined;
      }
      if (parsed && r.code === 0 && parsed['ok'] !== true) problems.push('exit 0 without ok:true');
    }
  } else if (r.code !== 0) {
    if (r.stdout !== '') problems.push('a failure printed on stdout');
    const lines = r.stderr.split('\n').filter((line) => line !== '');
    const errors = lines.filter((line) => line.startsWith('Error: '));
    if (errors.length !== 1 || lines.some((line) => !/^(Error|Hint): /.test(line))) problems.push('stderr is not one Error: line (and a Hint: line)');
    message = errors[0]?.slice('Error: '.length);
  }
  if (message !== undefined && message.length > LONGEST_MESSAGE) problems.push(`an error message of ${message.length} characters`);
  if (c.expect === 'usage') {
    if (r.code !== 2) problems.push(`exit ${r.code}, not 2 (usage)`);
    // help has no --json: its usage error says so whatever the words
    else if (c.names && !(json && c.id === 'help') && !(message ?? '').includes(c.names)) problems.push(`the error does not name ${c.names}`);
  }
  return problems;
}

const shown = (argv: readonly string[]) => argv.map((word) => SHOWN_VALUES.get(word) ?? (word === '' || /\s/.test(word) ? JSON.stringify(word) : word)).join(' ');
const cut = (text: string) => (text.length > 400 ? `${text.slice(0, 400)}… (${text.length} characters)` : text);

/** Runs `jobs` with at most `width` at a time. */
async function pooled<T>(jobs: Array<() => Promise<T>>, width: number): Promise<T[]> {
  const results: T[] = new Array<T>(jobs.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < jobs.length) {
        const index = next++;
        results[index] = await (jobs[index] as () => Promise<T>)();
      }
    }),
  );
  return results;
}

describe('bad input to every command', () => {
  let s: CliSandbox;
  let fixtures: Fixtures;

  beforeAll(async () => {
    s = await CliSandbox.start();
    const dir = s.configDir('fixtures');
    mkdirSync(dir, { recursive: true });
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const unreadable = join(dir, 'unreadable.json');
    writeFileSync(unreadable, 'null');
    chmodSync(unreadable, 0);
    const text = join(dir, 'notes.txt');
    writeFileSync(text, 'sweep\n');
    const schedule = join(dir, 'schedule.json');
    writeFileSync(schedule, 'null');
    // root reads any file whatever its mode: no unreadable file to give then
    fixtures = { dir, fifo, unreadable: process.getuid?.() === 0 ? undefined : unreadable, png: writePng(join(dir, 'dot.png'), 2, 2), text, schedule };
  });
  afterAll(async () => {
    await s?.stop();
  });

  it('has a plan for every command of the manifest', () => {
    const planned = Object.keys(plans({ dir: '', fifo: '', unreadable: undefined, png: '', text: '', schedule: '' }, ''));
    expect(commands.map((c) => c.id).filter((id) => !planned.includes(id))).toEqual([]);
  });

  it('answers each with a documented exit code and one clear error, never a stack trace or a hang', async () => {
    const all = plans(fixtures, TEST_TOKENS.admin);
    const cases = [...(await Promise.all(commands.map((command) => casesOf(command, all[command.id] as Plan, fixtures)))).flat(), ...topicCases()];
    const seen = new Set<string>();
    const jobs = cases.flatMap((c, index) => {
      if (c.sameEverywhere !== undefined && seen.has(c.sameEverywhere)) return [];
      if (c.sameEverywhere !== undefined) seen.add(c.sameEverywhere);
      const plan = all[c.id];
      const env = {
        BRANDWIRE_ENDPOINT: plan?.offline ? 'http://127.0.0.1:9' : s.url,
        BRANDWIRE_CONFIG_DIR: s.configDir(`cfg-${c.id.replaceAll(':', '-')}`),
        BRANDWIRE_TOKEN: plan?.noToken ? undefined : TEST_TOKENS.admin,
      };
      // schedule set's --json names its file: its output is always JSON; the other cases alternate between text and
      // --json, each mode meeting every kind of mistake across the commands at half the runs
      const modes = c.id === 'schedule:set' ? [true] : c.only === 'json' ? [true] : c.only === 'text' ? [false] : [index % 2 === 1];
      return modes.map((json) => async () => {
        const argv = json && c.id !== 'schedule:set' ? [...c.argv, '--json'] : c.argv;
        const r = await run(argv, env);
        const problems = problemsOf(c, json || c.id === 'schedule:set', r);
        return problems.length === 0 ? undefined : `brandwire ${shown(argv)}\n  problems: ${problems.join('; ')}\n  exit: ${r.code}\n  stdout: ${cut(r.stdout)}\n  stderr: ${cut(r.stderr)}`;
      });
    });
    const failures = (await pooled(jobs, 4)).filter((f): f is string => f !== undefined);
    expect({ runs: jobs.length, failures: failures.join('\n\n') }).toEqual({ runs: jobs.length, failures: '' });
    // about 500 runs: some 50 s on a quiet machine of 2 cores, more beside other test files
  }, 300_000);
});
