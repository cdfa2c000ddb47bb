/** The providers the tools can talk to; `ollama` (and any server with the same API, through `url`) speaks OpenAI's API. */
export const AI_PROVIDERS = ['openai', 'anthropic', 'ollama'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

/** Which model to ask, and how to reach it (`gateway.ai` of the CLI's config). */
export interface AiSettings {
  provider: AiProvider;
  model: string;
  apiKey?: string;
  /** base URL of the provider's API; for a local or compatible server */
  url?: string;
}

export function isAiProvider(value: unknown): value is AiProvider {
  return (AI_PROVIDERS as readonly unknown[]).includes(value);
}

/** What the gateway does with a customer message: nothing, a reply suggested in the team chat, or sent. */
export const AI_REPLY_MODES = ['off', 'suggest', 'auto'] as const;
export type AiReplyMode = (typeof AI_REPLY_MODES)[number];

/**
 * OpenAI's reasoning models (o1, o3, o4-mini, gpt-5…) take no temperature but their own, and count their output in
 * `max_completion_tokens`.
 */
export function isReasoningModel(ai: AiSettings): boolean {
  return ai.provider === 'openai' && /^(o\d|gpt-5)/i.test(ai.model);
}
