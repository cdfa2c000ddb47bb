import { Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { SendNotJournaledError } from '../common/errors/send-not-journaled';

const FIRST_RETRY_MS = 250;
const LONGEST_RETRY_MS = 10_000;
/** How long a stop waits for the writes still owed before it lets them go (and says which). */
const STOP_WAIT_MS = 5_000;

/**
 * Records what follows a send the messenger accepted (its count kept, its journal item): nothing accepted may be
 * lost, and a failure here must not invite a retry that would deliver it twice. Steps that fail are tried again
 * in the background, in order, until storage takes them.
 */
@Injectable()
export class AcceptedSends implements OnApplicationShutdown {
  private readonly logger = new Logger('AcceptedSends');
  private readonly owed = new Map<string, Promise<void>>();
  private stopping = false;

  /** Runs `steps` in order; when one fails, throws SendNotJournaledError and goes on with it in the background. */
  async record(serial: string, steps: ReadonlyArray<() => Promise<void>>): Promise<void> {
    for (const [index, step] of steps.entries()) {
      try {
        await step();
      } catch (error) {
        const journaled = this.retry(serial, steps.slice(index), error);
        throw new SendNotJournaledError(serial, journaled, error);
      }
    }
  }

  private retry(serial: string, steps: ReadonlyArray<() => Promise<void>>, firstError: unknown): Promise<void> {
    this.logger.warn(`serial ${serial} was accepted by the messenger, but could not be journaled (${messageOf(firstError)}); trying again`);
    const journaled = (async () => {
      let waitMs = FIRST_RETRY_MS;
      for (const step of steps) {
        for (;;) {
          await sleep(waitMs);
          try {
            await step();
            break;
          } catch (error) {
            if (this.stopping) throw error;
            waitMs = Math.min(waitMs * 2, LONGEST_RETRY_MS);
          }
        }
      }
      this.logger.warn(`serial ${serial} is journaled now`);
    })();
    this.owed.set(serial, journaled);
    void journaled.then(
      () => this.owed.delete(serial),
      () => this.owed.delete(serial),
    );
    return journaled;
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.owed.size === 0) return;
    this.stopping = true;
    const owed = [...this.owed.entries()];
    let timer: NodeJS.Timeout | undefined;
    const outcomes = await Promise.race([
      Promise.allSettled(owed.map(([, journaled]) => journaled)),
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), STOP_WAIT_MS))),
    ]);
    clearTimeout(timer);
    const lost = owed.filter((_, i) => outcomes?.[i]?.status !== 'fulfilled').map(([serial]) => serial);
    if (lost.length > 0) this.logger.error(`stopped before the journal took sends the messenger had accepted: serials ${lost.join(', ')}`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
