import { complete, conversationTurns, isHandoff, replyInstructions, replyText } from '@brandwire/ai';
import { type BrandwireClient, type MessageItem, isApiError } from '@brandwire/client';
import { messageOf } from '../gateway-log';
import type { RelayEvent } from './relay-event';
import type { AiReplySettings } from './relay-settings';
import type { TeamChatNotices } from './team-chat-notices';

/** A message older than this is not answered (the gateway was stopped meanwhile, say): a late reply is worse than none. */
export const STALE_AFTER_MS = 10 * 60_000;
/** How much of the room the model reads. */
const CONTEXT_MESSAGES = 50;
const MAX_ANSWER_TOKENS = 600;

export interface AiReplyContext {
  /** a client with the key in use, which may change while the gateway runs */
  client: () => BrandwireClient;
  ai: AiReplySettings;
  /** where suggestions and hand-overs are posted (nowhere with `auto` and no team chat) */
  notices: TeamChatNotices;
  stop: AbortSignal;
  report: (line: string) => void;
  ownReplies: OwnReplies;
}

/**
 * The AI's recent replies, by serial, with the seq of the message each answered. The messenger may show a reply to
 * the customer before the service journals it, so a message the customer wrote meanwhile comes before that reply in
 * the room: the reply is no agent's answer to it.
 */
export class OwnReplies {
  private readonly answered = new Map<string, number>();

  constructor(private readonly most = 1_000) {}

  add(serial: string, seq: number): void {
    this.answered.set(serial, seq);
    if (this.answered.size > this.most) this.answered.delete(this.answered.keys().next().value as string);
  }

  /** Whether the bubble is the AI's reply to a message before `seq`. */
  answeredBefore(serial: string | undefined, seq: number): boolean {
    const answered = serial === undefined ? undefined : this.answered.get(serial);
    return answered !== undefined && answered < seq;
  }
}

/**
 * Answers the customer message `seq` of a room with the model: posted to the team chat as a suggestion, or sent to
 * the customer (`auto`, with an idempotency key, so a repeat after a restart sends nothing twice). A message the
 * customer followed with another is answered with that one; one an agent answered, or an ended consultation's, is not.
 * A model that cannot answer, or declines to, leaves the customer to an agent, and the team chat is told.
 */
export async function answerCustomer(ctx: AiReplyContext, brand: string, userKey: string, seq: number): Promise<void> {
  const where = `${userKey} in ${brand} (seq ${seq})`;
  let room: readonly MessageItem[];
  try {
    room = (await ctx.client().messages({ brand, userKey, max: CONTEXT_MESSAGES })).messages;
  } catch (error) {
    if (ctx.stop.aborted) return;
    ctx.report(`error: the AI reply to ${where} is skipped: its room could not be read (${describe(error)})`);
    return handOver(ctx, brand, userKey, seq, 'the AI could not read the room');
  }
  const message = room.find((item) => item.seq === seq && item.kind === 'message');
  if (!message) return ctx.report(`the AI reply to ${where} is skipped: the message is no longer among the room's latest ${CONTEXT_MESSAGES}`);
  const passed = whyNotAnswered(room, seq, ctx.ownReplies);
  if (passed !== undefined) return passed === '' ? undefined : ctx.report(`the AI reply to ${where} is skipped: ${passed}`);
  if (Date.now() - message.timestampUnixMs > STALE_AFTER_MS) return ctx.report(`the AI reply to ${where} is skipped: the message is more than ${STALE_AFTER_MS / 60_000} minutes old`);

  let answer: string;
  try {
    answer = await complete(ctx.ai.model, {
      system: replyInstructions(brand, ctx.ai.instructions),
      turns: conversationTurns(room, message),
      maxTokens: MAX_ANSWER_TOKENS,
      temperature: 0.3,
      signal: ctx.stop,
    });
  } catch (error) {
    if (ctx.stop.aborted) return;
    ctx.report(`error: the AI could not answer ${where}: ${messageOf(error)}`);
    return handOver(ctx, brand, userKey, seq, 'the AI could not be asked');
  }
  if (isHandoff(answer)) {
    ctx.report(`the AI leaves ${where} to an agent`);
    return handOver(ctx, brand, userKey, seq, 'the AI has no answer');
  }
  // the model takes seconds: an agent may have answered, or the customer written again, meanwhile
  let meanwhile: string | undefined;
  try {
    meanwhile = whyNotAnswered((await ctx.client().messages({ brand, userKey, max: CONTEXT_MESSAGES })).messages, seq, ctx.ownReplies);
  } catch (error) {
    if (ctx.stop.aborted) return;
    ctx.report(`error: the AI's answer to ${where} is dropped: its room could not be read again (${describe(error)})`);
    return handOver(ctx, brand, userKey, seq, 'the AI could not check the room before answering');
  }
  if (meanwhile !== undefined) return meanwhile === '' ? undefined : ctx.report(`the AI's answer to ${where} is dropped: ${meanwhile}`);
  const text = replyText(answer);
  if (text === '') return handOver(ctx, brand, userKey, seq, 'the AI has no answer');
  if (ctx.ai.mode === 'suggest') return ctx.notices.post(notice('ai_suggestion', brand, userKey, seq, text));
  // a stop while the model thought: the message is answered after the restart
  if (ctx.stop.aborted) return;
  await sendReply(ctx, brand, userKey, seq, text, where);
}

/**
 * Why the message `seq` is not to be answered now, from its room: '' when the customer wrote again (that message is
 * answered, with this one before it), else what happened after it; undefined when it is still to be answered.
 */
export function whyNotAnswered(room: readonly MessageItem[], seq: number, ownReplies: OwnReplies): string | undefined {
  const after = room.filter((item) => item.seq > seq);
  if (after.some((item) => item.kind === 'message')) return '';
  const answered = after.find((item) => (item.kind === 'agent' && !ownReplies.answeredBefore(item.serial, seq)) || item.kind === 'ended' || item.kind === 'expired');
  if (answered === undefined) return undefined;
  return answered.kind === 'agent' ? 'an agent answered' : `the consultation ${answered.kind}`;
}

async function sendReply(ctx: AiReplyContext, brand: string, userKey: string, seq: number, text: string, where: string): Promise<void> {
  try {
    const sent = await ctx.client().send({ brandKey: brand, userKey, text }, { idempotencyKey: `ai-reply:${brand}:${seq}` });
    if (sent.ok) {
      if (sent.serial !== undefined) ctx.ownReplies.add(sent.serial, seq);
      return ctx.report(`the AI answered ${where} (${sent.serial})`);
    }
    ctx.report(`error: the AI's answer to ${where} was not delivered: the messenger answered ${sent.code}${sent.message ? ` (${sent.message})` : ''}`);
    handOver(ctx, brand, userKey, seq, `the AI's answer was not delivered (${sent.code})`);
  } catch (error) {
    // a send the stop cut short: after the restart the message is answered again, under the same idempotency key
    if (ctx.stop.aborted) return;
    // the same message answered before a restart: that answer stands
    if (isApiError(error) && error.code === 'IDEMPOTENCY_CONFLICT') return ctx.report(`the AI answered ${where} before`);
    ctx.report(`error: the AI's answer to ${where} could not be sent (${describe(error)})`);
    handOver(ctx, brand, userKey, seq, `the AI's answer could not be sent (${isApiError(error) ? error.code : 'the service did not answer'})`);
  }
}

/** The customer is left to an agent: the team chat is told why, when there is one. */
function handOver(ctx: AiReplyContext, brand: string, userKey: string, seq: number, why: string): void {
  ctx.notices.post(notice('ai_handoff', brand, userKey, seq, why));
}

function describe(error: unknown): string {
  return isApiError(error) ? `${error.code}, ${error.message}` : messageOf(error);
}

function notice(kind: 'ai_suggestion' | 'ai_handoff', brand: string, userKey: string, seq: number, text: string): RelayEvent {
  return { id: `${brand}:${seq}.ai`, kind, brandKey: brand, userKey, seq, at: new Date().toISOString(), text };
}
