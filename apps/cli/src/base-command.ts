import { Command } from '@oclif/core/command';
import type { Input, ParserOutput } from '@oclif/core/interfaces';
import { type ConfigTolerance, type Session, loadSession } from './lib/config-store';
import { EXIT } from './lib/exit-codes';
import { failureOf } from './lib/failure';
import { withLongWordsCut } from './lib/long-words';
import { colorEnabled, paint } from './lib/output';
import { refuseSwitchValues } from './lib/switch-values';
import { safeForTerminal, shownControls } from './lib/terminal-text';

/**
 * The line --json prints: the JSON of `json`, or, when it cannot be serialised (a result beyond the longest
 * string JavaScript can make, a bigint), the error line `{ ok: false, error, code }` instead of nothing.
 */
export function jsonLine(json: unknown): { line: string; failed: boolean } {
  try {
    return { line: `${JSON.stringify(json)}\n`, failed: false };
  } catch (error) {
    const message = `the result could not be printed as JSON: ${error instanceof Error ? error.message : String(error)}`;
    return { line: `${JSON.stringify({ ok: false, error: message, code: 'INTERNAL' })}\n`, failed: true };
  }
}

/** Text for a stream: without colour (not a terminal, or NO_COLOR) no escape sequence in it is ours to keep. */
function forTerminal(text: string, stream: NodeJS.WriteStream): string {
  return colorEnabled(stream) ? safeForTerminal(text) : shownControls(text);
}

/**
 * Every command: global --json (one line of JSON on stdout; errors as `{ ok: false, error, code }`), the exit codes
 * 0/1/2/4, and text for people only without --json. A command's run() returns what --json prints.
 */
export abstract class BrandwireCommand extends Command {
  static override enableJsonFlag = true;

  private cachedSession: Session | undefined;

  /**
   * The endpoint, key and default channel in use (environment over stored config); read once. An unreadable
   * config file fails the command unless tolerated (the commands that show or replace it).
   */
  protected session(options: { tolerate?: ConfigTolerance } = {}): Session {
    this.cachedSession ??= loadSession(process.env, options);
    return this.cachedSession;
  }

  /** Prints for people, only without --json. */
  protected async show(print: () => string | Promise<string>): Promise<void> {
    if (this.jsonEnabled()) return;
    const text = await print();
    if (text !== '') process.stdout.write(`${forTerminal(text, process.stdout)}\n`);
  }

  /** A message for people on stderr (also in --json mode, where stdout holds the JSON only). */
  protected note(message: string): void {
    process.stderr.write(`${forTerminal(message, process.stderr)}\n`);
  }

  /** oclif's parse, after refusing a value given to a switch (`--force=yes`), which oclif takes for an argument. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- oclif's own FlagOutput and ArgOutput, which it does not export
  protected override async parse<F extends Record<string, any>, B extends Record<string, any>, A extends Record<string, any>>(options?: Input<F, B, A>, argv: string[] = this.argv): Promise<ParserOutput<F, B, A>> {
    const input = options ?? (this.ctor as unknown as Input<F, B, A>);
    const json = this.ctor.enableJsonFlag ? { json: { type: 'boolean' } } : {};
    refuseSwitchValues(argv, { ...input.baseFlags, ...input.flags, ...json });
    return super.parse(options, argv);
  }

  protected override logJson(json: unknown): void {
    const { line, failed } = jsonLine(json);
    if (failed) process.exitCode = EXIT.error;
    process.stdout.write(line);
  }

  protected override async catch(error: Error & { exitCode?: number }): Promise<void> {
    const failure = failureOf(error);
    // a value given on the command line may come back in the message: 100,000 characters of it help nobody
    failure.message = withLongWordsCut(failure.message);
    if (failure.hint !== undefined) failure.hint = withLongWordsCut(failure.hint);
    // a failed parse still was a parse: no "did not parse its arguments" warning under NODE_ENV=development|test
    this.parsed = true;
    process.exitCode = failure.exit;
    if (this.jsonEnabled()) {
      // the hint goes into the JSON (not on stderr too): what to do next, for scripts and for people reading them
      this.logJson({ ok: false, error: failure.message, code: failure.code, ...failure.details, ...(failure.hint === undefined ? {} : { hint: failure.hint }) });
      return;
    }
    const color = colorEnabled(process.stderr);
    const code = failure.code === 'USAGE' || failure.code === 'INTERNAL' ? '' : ` (${failure.code})`;
    // a failure's message and hint hold no colour of ours: every escape sequence in them came from a value
    process.stderr.write(`${paint('Error:', 'red', color)} ${shownControls(`${failure.message}${code}`)}\n`);
    if (failure.hint) process.stderr.write(`${paint('Hint:', 'dim', color)} ${shownControls(failure.hint)}\n`);
  }
}
