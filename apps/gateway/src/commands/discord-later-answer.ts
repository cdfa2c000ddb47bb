import type { DiscordMessage, LaterAnswer } from './discord-interaction';
import { callTeamChat } from './team-chat-call';

/** Discord's API, where the answer to a deferred interaction is given. */
export const DISCORD_API = 'https://discord.com/api/v10';

/** The answer was given to the asker, but the "thinking…" the channel saw could not be removed. */
export class ThinkingLeft extends Error {
  override readonly name = 'ThinkingLeft';
}

/**
 * Gives the answer to an interaction deferred with DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: its "thinking…" message
 * edited into the answer (`PATCH …/messages/@original`), or, when the answer is for another audience than the
 * deferral was (a failure, for the asker only, of a command deferred in the channel), the answer sent as a follow-up
 * and then that message deleted, so that the asker is left with one or the other. Throws naming what failed (a
 * ThinkingLeft when only the deletion did); never the interaction's token, which is in the URL. Each call is given
 * up after `timeoutMs` when told.
 */
export async function giveLaterAnswer(api: string, later: LaterAnswer, deferredForAsker: boolean, message: DiscordMessage, timeoutMs?: number): Promise<void> {
  const webhook = `${api}/webhooks/${encodeURIComponent(later.applicationId)}/${encodeURIComponent(later.token)}`;
  const forAsker = message.flags !== undefined;
  if (forAsker === deferredForAsker) {
    // an edit keeps the deferral's flags
    const { flags: _kept, ...edit } = message;
    return callTeamChat('PATCH', `${webhook}/messages/@original`, edit, timeoutMs);
  }
  await callTeamChat('POST', webhook, message, timeoutMs);
  await callTeamChat('DELETE', `${webhook}/messages/@original`, undefined, timeoutMs).catch((error: unknown) => {
    throw new ThinkingLeft((error as Error).message);
  });
}
