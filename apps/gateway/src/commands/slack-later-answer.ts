import { slackEscaped } from '../relay/relay-event';
import type { CommandName } from './command-request';
import { callTeamChat } from './team-chat-call';
import type { CommandOutcome } from './team-commands';

/** Where Slack's response_urls are: a later answer is posted nowhere else. */
export const SLACK_RESPONSE_ORIGIN = 'https://hooks.slack.com';

/** Slack's answer to a slash command, as given at once or posted later to its response_url. */
export interface SlackMessage {
  response_type: 'in_channel' | 'ephemeral';
  text: string;
}

/** In the channel, except what is for whoever typed the command only: `/cs-who`'s answer, a mistake, a failure. */
export function slackMessage({ outcome, text, private: forAsker }: CommandOutcome): SlackMessage {
  return { response_type: outcome === 'done' && !forAsker ? 'in_channel' : 'ephemeral', text: slackEscaped(text) };
}

/** Slack's answer within its 3 s to a command still running: the answer follows at the response_url. */
export function slackAcknowledgement(command: CommandName): SlackMessage {
  return { response_type: 'ephemeral', text: `${command} is under way; its answer follows here` };
}

/**
 * The request's response_url when it is on `origin` (Slack's own, unless a test says otherwise); undefined for any
 * other, so that a request cannot make the gateway call an address of its choosing.
 */
export function slackLaterAnswerOf(responseUrl: string | undefined, origin: string): URL | undefined {
  if (responseUrl === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(responseUrl);
  } catch {
    return undefined;
  }
  return url.origin === new URL(origin).origin && url.username === '' && url.password === '' ? url : undefined;
}

/**
 * Posts the answer to the response_url, given up after `timeoutMs` when told; throws naming what failed, never the
 * URL (whoever has it can answer).
 */
export function giveSlackLaterAnswer(responseUrl: URL, message: SlackMessage, timeoutMs?: number): Promise<void> {
  return callTeamChat('POST', responseUrl.href, message, timeoutMs);
}
