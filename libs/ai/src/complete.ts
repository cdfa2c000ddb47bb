import { AiUnavailableError } from './ai-error';
import { type AiSettings, isReasoningModel } from './ai-settings';
import { authHeaders, apiRoot, callProvider } from './provider-http';

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface CompletionRequest {
  /** the instructions the model follows */
  system: string;
  /** the conversation so far, oldest first, ending with the user's turn */
  turns: readonly ChatTurn[];
  maxTokens?: number;
  temperature?: number;
  timeoutMs?: number;
  signal?: AbortSignal;
}

const DEFAULT_MAX_TOKENS = 500;

/** The model's answer to a conversation, as text. Fails with AiUnavailableError, never with an empty answer. */
export async function complete(ai: AiSettings, request: CompletionRequest): Promise<string> {
  const headers = authHeaders(ai);
  const base = apiRoot(ai);
  const maxTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
  const temperature = request.temperature ?? 0;
  const anthropic = ai.provider === 'anthropic';
  const data = await callProvider(
    ai,
    anthropic
      ? { method: 'POST', url: `${base}/messages`, headers, body: { model: ai.model, max_tokens: maxTokens, temperature, system: request.system, messages: request.turns } }
      : { method: 'POST', url: `${base}/chat/completions`, headers, body: { model: ai.model, ...openAiLimits(ai, maxTokens, temperature), messages: [{ role: 'system', content: request.system }, ...request.turns] } },
    { timeoutMs: request.timeoutMs, signal: request.signal },
  );
  const text = anthropic ? anthropicText(data) : openAiText(data);
  if (text === undefined) throw new AiUnavailableError(ai.provider, ai.model, 'the answer had no text', ai.apiKey);
  return text.trim();
}

/** OpenAI counts the answer in `max_completion_tokens` (its reasoning models refuse `max_tokens` and a temperature); compatible servers such as Ollama read `max_tokens`. */
function openAiLimits(ai: AiSettings, maxTokens: number, temperature: number): Record<string, number> {
  if (ai.provider !== 'openai') return { max_tokens: maxTokens, temperature };
  return isReasoningModel(ai) ? { max_completion_tokens: maxTokens } : { max_completion_tokens: maxTokens, temperature };
}

function anthropicText(data: object): string | undefined {
  const content = (data as { content?: unknown }).content;
  if (!Array.isArray(content)) return undefined;
  const text = content
    .map((part: unknown) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
    .join('');
  return text.trim() === '' ? undefined : text;
}

function openAiText(data: object): string | undefined {
  const choices = (data as { choices?: unknown }).choices;
  const content = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content : undefined;
  return typeof content === 'string' && content.trim() !== '' ? content : undefined;
}
