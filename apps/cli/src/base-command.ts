import { Command } from '@oclif/core/command';
import { type ConfigTolerance, type Session, loadSession } from './lib/config-store';
import { EXIT } from './lib/exit-codes';
import { failureOf } from './lib/failure';
import { colorEnabled, paint } from './lib/output';
import { safeForTerminal } from './lib/terminal-text';

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
    if (text !== '') process.stdout.write(`${safeForTerminal(text)}\n`);
  }

  /** A message for people on stderr (also in --json mode, where stdout holds the JSON only). */
  protected note(message: string): void {
    process.stderr.write(`${safeForTerminal(message)}\n`);
  }

  protected override logJson(json: unknown): void {
    const { line, failed } = jsonLine(json);
    if (failed) process.exitCode = EXIT.error;
    process.stdout.write(line);
  }

  protected override async catch(error: Error & { exitCode?: number }): Promise<void> {
    const failure = failureOf(error);
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
    process.stderr.write(`${paint('Error:', 'red', color)} ${safeForTerminal(`${failure.message}${code}`)}\n`);
    if (failure.hint) process.stderr.write(`${paint('Hint:', 'dim', color)} ${safeForTerminal(failure.hint)}\n`);
  }
}
