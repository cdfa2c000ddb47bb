/** One line per event on stdout ("<ISO time> <message>"); the CLI sends it to the gateway's log file. */
export function log(message: string): void {
  process.stdout.write(`${new Date().toISOString()} ${message}\n`);
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
