import { Injectable } from '@nestjs/common';
import { KeyedTurns } from '../../common/concurrency/keyed-turns';

/**
 * The sends to one customer take turns in this process, from the messenger's call to the journal's write, so
 * that the journal (its `seq`, the signals, the messages and the conversation lines) holds them in the order the
 * customer received them. Sends to different customers run side by side.
 */
@Injectable()
export class CustomerSendTurns {
  private readonly turns = new KeyedTurns();

  run<T>(channelKey: string, userKey: string, send: () => Promise<T>): Promise<T> {
    return this.turns.run(`${channelKey}\n${userKey}`, send);
  }
}
