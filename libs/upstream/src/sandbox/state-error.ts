/**
 * The sandbox cannot start from what its state folder holds. The message names the file and says how to go on,
 * so a caller may print it alone.
 */
export class SandboxStateError extends Error {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super(`the sandbox state in ${file} ${problem}; move it away to start the sandbox empty`);
    this.name = 'SandboxStateError';
  }
}
