import { setTimeout as sleep } from 'node:timers/promises';
import type { CommandName } from './command-request';
import type { CommandOutcome } from './team-commands';

/**
 * How long a stop waits for the answers being made, then how long it gives each asker still waiting being told that
 * the gateway stopped: 5 s at most in all, well within the 10 s `brandwire gateway stop` waits before SIGKILL.
 */
export const ANSWERS_FINISH_WITHIN_MS = 3_000;
export const STOPPED_TOLD_WITHIN_MS = 2_000;

/** What an answer still owed comes to once the stop's wait for it is over. */
export const STOPPED = Symbol('the gateway stopped');

/** The answer to a command that was not ready when the gateway stopped: for the asker only, as a failure is. */
export function stoppedBefore(command: CommandName): CommandOutcome {
  const done = command === '/cs-who' ? '' : ' (/cs-who shows whether it was done)';
  return { outcome: 'failed', text: `the gateway stopped before the answer to ${command} was ready; ask again once it is back${done}` };
}

/** The answer to a command that comes once the stop began: it is not run. */
export const STOPPING: CommandOutcome = { outcome: 'failed', text: 'the gateway is stopping; ask again once it is back' };

/**
 * The answers the command server owes: each command's, from when it starts running until its answer is given, at
 * once or later. A stop waits for them a bounded time; each one still owed then is answered that the gateway stopped
 * (see `orStopped`), so that no one who asked is left waiting in silence.
 */
export class OwedAnswers {
  private readonly owed = new Set<Promise<void>>();
  /** how each command still running is told that the stop's wait for it is over */
  private readonly running = new Set<() => void>();
  private stage: 'running' | 'waiting' | 'stopped' = 'running';

  /** Whether the stop began: a command that comes now is not run. */
  get stopping(): boolean {
    return this.stage !== 'running';
  }

  /** Owes the answer `answering` gives until it settles. */
  owe(answering: Promise<void>): Promise<void> {
    this.owed.add(answering);
    return answering.finally(() => this.owed.delete(answering));
  }

  /**
   * The command's outcome, or STOPPED once the stop's wait for it is over (at once when it is over already). Holds
   * nothing once the command is done: a command answered must not stay reachable until the stop, with its answer.
   */
  orStopped<T>(command: Promise<T>): Promise<T | typeof STOPPED> {
    if (this.stage === 'stopped') return Promise.resolve(STOPPED);
    return new Promise((resolve, reject) => {
      const stopped = (): void => resolve(STOPPED);
      this.running.add(stopped);
      void command.then(resolve, reject).finally(() => this.running.delete(stopped));
    });
  }

  /** Waits for the answers owed, then has those still owed told that the gateway stopped; bounded, at once when none is owed. */
  async stop(): Promise<void> {
    this.stage = 'waiting';
    await this.settledWithin(ANSWERS_FINISH_WITHIN_MS);
    this.stage = 'stopped';
    for (const stopped of this.running) stopped();
    this.running.clear();
    await this.settledWithin(STOPPED_TOLD_WITHIN_MS);
  }

  private async settledWithin(ms: number): Promise<void> {
    if (this.owed.size === 0) return;
    const timer = new AbortController();
    await Promise.race([Promise.allSettled([...this.owed]), sleep(ms, undefined, { signal: timer.signal }).catch(() => undefined)]);
    timer.abort();
  }
}
