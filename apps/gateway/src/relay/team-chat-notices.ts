import { deliverTo } from './relay-delivery';
import type { RelayEvent } from './relay-event';
import type { RelayProgress } from './relay-progress';
import type { RelayTarget } from './relay-settings';

/** Notices waiting beyond this many while the team chat is down: the oldest are dropped, logged. */
const MOST_WAITING = 200;

/**
 * What the AI tells the team chat (suggestions, hand-overs) about a channel's customers, posted in order on their own:
 * a team chat that is down holds back its notices, never the answering of other customers. Each waits until the
 * channel's relay to the team chat is done with the message it is about, so that the team chat gets the message
 * first, also when both had to be tried again. Notices still waiting at a stop are lost (logged).
 */
export class TeamChatNotices {
  private readonly waiting: RelayEvent[] = [];
  private posting = false;

  constructor(
    private readonly teamChat: RelayTarget | undefined,
    /** the channel's relay to the team chat */
    private readonly relayed: RelayProgress,
    private readonly stop: AbortSignal,
    private readonly report: (line: string) => void,
  ) {}

  post(event: RelayEvent): void {
    if (!this.teamChat) return;
    this.waiting.push(event);
    if (this.waiting.length > MOST_WAITING) {
      const dropped = this.waiting.shift();
      this.report(`error: the team chat is behind by more than ${MOST_WAITING} AI notices; ${dropped?.id ?? '?'} is dropped`);
    }
    if (!this.posting) void this.drain(this.teamChat);
  }

  private async drain(teamChat: RelayTarget): Promise<void> {
    this.posting = true;
    try {
      for (let next = this.waiting.shift(); next !== undefined && !this.stop.aborted; next = this.waiting.shift()) {
        await this.relayed.through(next.seq, this.stop);
        if (this.stop.aborted) {
          this.waiting.unshift(next);
          break;
        }
        await deliverTo(teamChat, next, this.stop, this.report);
      }
      if (this.stop.aborted && this.waiting.length > 0) this.report(`${this.waiting.length} AI notices for the team chat were not posted before the stop`);
    } finally {
      this.posting = false;
    }
  }
}
