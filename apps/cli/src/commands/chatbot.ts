import { string } from '@oclif/core/flags';
import { BrandwireCommand } from '../base-command';
import { channelOf } from '../lib/channel';
import { selectedModel } from '../lib/ai-model';
import { Chatbot } from '../lib/chatbot';
import { usageError } from '../lib/cli-error';
import { connect } from '../lib/connect';
import { failureOf } from '../lib/failure';
import { channelFlag, optionalToFlag } from '../lib/flags';
import { colorEnabled, paint } from '../lib/output';
import { safeForTerminal, shownControls } from '../lib/terminal-text';

export interface ChatbotAnswer {
  ok: true;
  channel: string;
  userKey: string | null;
  answer: string;
}

export default class ChatbotCommand extends BrandwireCommand {
  static override summary = "An AI assistant for the channel's consultations: ask, draft replies, send them";
  static override description = [
    'Needs a key (`brandwire setup`) and a model (`brandwire model set <id>`). On a terminal it is a chat: ask about the consultations in progress, /open a customer\'s room, /draft a reply and /send it (nothing is sent unless you say /send). /help lists the commands.',
    'With --ask it answers one question and ends, also without a terminal (scripts; --json gives {ok, channel, userKey, answer}).',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> chatbot --channel acme-kakao',
    '<%= config.bin %> chatbot --channel acme-kakao --to alice',
    '<%= config.bin %> chatbot --channel acme-kakao --to alice --ask "What does this customer want?" --json',
  ];
  static override flags = {
    channel: channelFlag(),
    to: optionalToFlag("open this customer's room from the start (alias: --user)"),
    ask: string({ description: 'ask one question, print the answer and end', helpValue: '<question>' }),
  };

  async run(): Promise<ChatbotAnswer | { ok: true; channel: string }> {
    const { flags } = await this.parse(ChatbotCommand);
    const session = this.session();
    const channel = channelOf(flags.channel, session);
    const interactive = flags.ask === undefined;
    if (interactive && this.jsonEnabled()) throw usageError('--json needs --ask: the chat itself is for people');
    if (interactive && !(process.stdin.isTTY && process.stdout.isTTY)) {
      throw usageError('the chatbot is a chat and needs a terminal', 'pass --ask "<question>" to ask one question from a script');
    }
    if (flags.ask !== undefined && flags.ask.trim() === '') throw usageError('--ask needs a question');
    const ai = selectedModel(session.config.gateway?.ai);
    const bot = new Chatbot(await connect(session), ai, channel, flags.to, session.config.gateway?.ai?.instructions);
    if (flags.ask !== undefined) {
      const answer = await bot.ask(flags.ask);
      // the model's text is shown, never obeyed: its escape sequences are printed as signs
      await this.show(() => shownControls(answer));
      return { ok: true, channel, userKey: flags.to ?? null, answer };
    }
    await this.chat(bot, `${ai.provider}/${ai.model}`);
    return { ok: true, channel };
  }

  private async chat(bot: Chatbot, model: string): Promise<void> {
    const { createInterface } = await import('node:readline/promises');
    const color = colorEnabled();
    const out = (text: string): void => void process.stdout.write(`${safeForTerminal(text)}\n`);
    out(`Assistant for ${bot.channel} (${model}). /help lists the commands, /quit leaves; Ctrl-C stops waiting for an answer.`);
    const rl = createInterface({ input: process.stdin, output: process.stdout, historySize: 200 });
    let closed = false;
    let waiting: AbortController | undefined;
    rl.on('close', () => (closed = true));
    // Ctrl-C while the model thinks gives up that answer; at the prompt it leaves
    rl.on('SIGINT', () => (waiting ? waiting.abort() : rl.close()));
    try {
      while (!closed) {
        const prompt = paint(`${bot.channel}${bot.openRoom ? ` › ${bot.openRoom}` : ''}> `, 'cyan', color);
        const line = await rl.question(prompt).catch(() => undefined);
        if (line === undefined) break;
        waiting = new AbortController();
        try {
          const answer = await bot.take(line, waiting.signal);
          if (answer === undefined) break;
          if (answer !== '') out(answer);
        } catch (error) {
          if (waiting.signal.aborted) {
            out('(stopped)');
            continue;
          }
          const failure = failureOf(error as Error);
          out(`${paint('Error:', 'red', color)} ${shownControls(failure.message)}${failure.hint ? `\n${paint('Hint:', 'dim', color)} ${failure.hint}` : ''}`);
        } finally {
          waiting = undefined;
        }
      }
    } finally {
      rl.close();
    }
    out('Bye.');
  }
}
