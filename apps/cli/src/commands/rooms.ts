import type { MessagesResponse, RoomsResponse } from '@brandwire/client';
import { integer } from '@oclif/core/flags';
import { BrandwireCommand } from '../base-command';
import { usageError } from '../lib/cli-error';
import { connect } from '../lib/connect';
import { optionalToFlag, requiredChannelFlag } from '../lib/flags';
import { presentMessages, presentRooms } from '../lib/present';

/** The service's bounds of `max`: its room list takes more than one room's messages. */
const MAX_ROOMS = 1000;
const MAX_MESSAGES = 300;

export default class Rooms extends BrandwireCommand {
  static override summary = 'List the rooms with a consultation in progress, or the messages of one room';
  static override examples = [
    '<%= config.bin %> rooms --channel acme-kakao',
    '<%= config.bin %> rooms --channel acme-kakao --max 1000',
    '<%= config.bin %> rooms --channel acme-kakao --user alice --max 20',
    '<%= config.bin %> rooms --channel acme-kakao --to alice --json',
  ];
  static override flags = {
    channel: requiredChannelFlag(),
    to: optionalToFlag("show the messages of this customer's room (alias: --user)"),
    max: integer({
      description: `at most this many rooms (1 to ${MAX_ROOMS}), or messages with --to/--user (1 to ${MAX_MESSAGES}); default 100`,
      min: 1,
      max: MAX_ROOMS,
      helpValue: '<n>',
    }),
  };

  async run(): Promise<RoomsResponse | MessagesResponse> {
    const { flags } = await this.parse(Rooms);
    if (flags.to && flags.max !== undefined && flags.max > MAX_MESSAGES) {
      throw usageError(`--max with --to/--user is at most ${MAX_MESSAGES} (a room's messages); the room list takes up to ${MAX_ROOMS}`);
    }
    const client = await connect(this.session());
    if (flags.to) {
      const messages = await client.messages({ brand: flags.channel, userKey: flags.to, max: flags.max });
      await this.show(() => presentMessages(messages));
      return messages;
    }
    const rooms = await client.rooms({ brand: flags.channel, max: flags.max });
    await this.show(() => presentRooms(rooms));
    return rooms;
  }
}
