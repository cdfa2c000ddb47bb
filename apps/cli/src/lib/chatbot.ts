import type { AiSettings, ChatTurn } from '@brandwire/ai';
import type { BrandwireClient, MessageItem } from '@brandwire/client';
import { CliError, usageError } from './cli-error';
import type { Session } from './config-store';
import { EXIT } from './exit-codes';
import { formatTimestamp } from './output';
import { presentMessages, presentRooms } from './present';

/** What the assistant remembers of the chat with the agent: the last exchanges, not the whole session. */
const REMEMBERED_TURNS = 12;
/** How much of the open room and of the room list the assistant is shown with each question. */
const ROOM_MESSAGES = 30;
const ROOMS_SHOWN = 20;

export const CHATBOT_HELP = [
  'Ask anything about the channel\'s consultations, or use a command:',
  '  /rooms              the consultations in progress',
  '  /open <customer>    open a customer\'s room (its latest messages are shown to the assistant)',
  '  /draft              the assistant drafts a reply to the open room\'s customer',
  '  /send [text]        send the text, or the last draft, to the open room\'s customer',
  '  /help               this list',
  '  /quit               leave (or Ctrl-D)',
].join('\n');

/** The AI settings the assistant needs: a provider and a selected model. */
export function assistantModel(session: Session): AiSettings {
  const ai = session.config.gateway?.ai;
  if (!ai?.provider) throw new CliError('CONFIG', 'no AI provider is set', EXIT.error, { setting: 'gateway.ai' }, '`brandwire setup <key> --ai-provider openai|anthropic|ollama --ai-api-key <key>`');
  if (!ai.model) throw new CliError('CONFIG', 'no AI model is selected', EXIT.error, { setting: 'gateway.ai' }, '`brandwire model list`, then `brandwire model set <id>`');
  return { provider: ai.provider, model: ai.model, ...(ai.apiKey && { apiKey: ai.apiKey }), ...(ai.url && { url: ai.url }) };
}

/**
 * The agent's AI assistant for one channel: answers questions with the channel's rooms (and the open room's
 * messages) in view, drafts replies, and sends them only when the agent says so (/send).
 */
export class Chatbot {
  private turns: ChatTurn[] = [];
  private draft: string | undefined;

  constructor(
    private readonly client: BrandwireClient,
    private readonly ai: AiSettings,
    readonly channel: string,
    private room: string | undefined,
    private readonly instructions: string | undefined,
  ) {}

  get openRoom(): string | undefined {
    return this.room;
  }

  /** The answer to one line the agent typed; `undefined` to leave. */
  async take(line: string): Promise<string | undefined> {
    const text = line.trim();
    if (text === '') return '';
    if (!text.startsWith('/')) return this.ask(text);
    const [command = '', ...rest] = text.split(/\s+/);
    const argument = text.slice(command.length).trim();
    switch (command) {
      case '/quit':
      case '/exit':
        return undefined;
      case '/help':
        return CHATBOT_HELP;
      case '/rooms':
        return presentRooms(await this.client.rooms({ brand: this.channel }));
      case '/open':
        if (rest.length !== 1) throw usageError('/open takes one customer key, e.g. /open alice');
        this.room = argument;
        this.draft = undefined;
        return presentMessages(await this.client.messages({ brand: this.channel, userKey: argument, max: 10 }));
      case '/draft':
        return this.draftReply();
      case '/send':
        return this.send(argument);
      default:
        throw usageError(`unknown command ${command}`, 'type /help for the commands');
    }
  }

  /** A question to the assistant, with the channel's rooms and the open room in view. */
  async ask(question: string): Promise<string> {
    const { complete } = await import('@brandwire/ai');
    this.turns.push({ role: 'user', content: question });
    try {
      const answer = await complete(this.ai, { system: await this.instructionsNow(), turns: this.turns, maxTokens: 800, temperature: 0.2 });
      this.turns.push({ role: 'assistant', content: answer });
      return answer;
    } catch (error) {
      this.turns.pop();
      throw aiUnavailable(this.ai, error);
    } finally {
      this.turns = this.turns.slice(-REMEMBERED_TURNS);
    }
  }

  private async draftReply(): Promise<string> {
    const userKey = this.needRoom('/draft');
    const { complete, conversationTurns, isHandoff, replyInstructions, replyText } = await import('@brandwire/ai');
    const room = (await this.client.messages({ brand: this.channel, userKey, max: ROOM_MESSAGES })).messages;
    const last = room.find((m) => m.kind === 'message');
    if (!last) return `${userKey} has written nothing to answer yet.`;
    const answer = await complete(this.ai, { system: replyInstructions(this.channel, this.instructions), turns: conversationTurns(room, last), maxTokens: 600, temperature: 0.3 }).catch(
      (error: unknown) => {
        throw aiUnavailable(this.ai, error);
      },
    );
    if (isHandoff(answer)) return 'The assistant has no reply to suggest: this one is for you.';
    this.draft = replyText(answer);
    return `Draft for ${userKey} (/send sends it, or /send <your text>):\n${this.draft}`;
  }

  private async send(text: string): Promise<string> {
    const userKey = this.needRoom('/send');
    const body = text || this.draft;
    if (!body) throw usageError('nothing to send: /send <text>, or /draft first');
    const sent = await this.client.send({ brandKey: this.channel, userKey, text: body });
    if (!sent.ok) return `Not delivered: the messenger answered ${sent.code}${sent.message ? ` (${sent.message})` : ''}.`;
    if (!text) this.draft = undefined;
    return `Sent to ${userKey} (${sent.serial}).`;
  }

  private needRoom(command: string): string {
    if (this.room === undefined) throw usageError(`${command} needs an open room: /open <customer> first (or start with --to)`);
    return this.room;
  }

  private async instructionsNow(): Promise<string> {
    const rooms = (await this.client.rooms({ brand: this.channel, max: ROOMS_SHOWN })).rooms;
    const parts = [
      `You assist a customer-support agent of the messenger channel "${this.channel}". Answer the agent briefly, in the agent's language, as plain text.`,
      'You can see the consultations in progress and, when the agent opened one, its latest messages. You cannot send anything yourself: the agent sends with /send.',
      rooms.length === 0
        ? 'No consultation is in progress.'
        : `Consultations in progress (customer, last activity, last text):\n${rooms.map((r) => `- ${r.userKey}, ${formatTimestamp(r.lastTimestampUnixMs)}, ${JSON.stringify(r.lastText.slice(0, 200))}`).join('\n')}`,
    ];
    if (this.room !== undefined) {
      const messages = (await this.client.messages({ brand: this.channel, userKey: this.room, max: ROOM_MESSAGES })).messages;
      parts.push(`The open room, customer ${this.room}, oldest first:\n${transcript(messages)}`);
    }
    if (this.instructions) parts.push(`The brand's instructions for replies:\n${this.instructions}`);
    return parts.join('\n\n');
  }
}

function transcript(newestFirst: readonly MessageItem[]): string {
  if (newestFirst.length === 0) return '(no messages)';
  const who: Record<string, string> = { message: 'customer', agent: 'agent', reference: 'consultation started', ended: 'consultation ended', expired: 'consultation expired', deleted: 'agent deleted a message' };
  return [...newestFirst]
    .reverse()
    // the other kinds' texts only say what the kind says
    .map((m) => `[${formatTimestamp(m.timestampUnixMs)}] ${who[m.kind] ?? m.kind}${(m.kind === 'message' || m.kind === 'agent') && !m.deleted ? `: ${m.text}` : ''}`)
    .join('\n');
}

function aiUnavailable(ai: AiSettings, error: unknown): CliError {
  const message = `the assistant (${ai.provider}/${ai.model}) could not answer: ${error instanceof Error ? error.message.replace(`${ai.provider}/${ai.model}: `, '') : String(error)}`;
  return new CliError('AI_UNAVAILABLE', ai.apiKey ? message.split(ai.apiKey).join('***') : message, EXIT.error, { provider: ai.provider, model: ai.model }, 'check gateway.ai in the config, or `brandwire model list`');
}
