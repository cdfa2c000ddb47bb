/** The providers the tools can talk to; `ollama` (and any server with the same API, through `url`) speaks OpenAI's API. */
export const AI_PROVIDERS = ['openai', 'anthropic', 'ollama'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];

/** Which model to ask, and how to reach it (`gateway.ai` of the CLI's config). */
export interface AiSettings {
  provider: string;
  model: string;
  apiKey?: string;
  /** base URL of the provider's API; for a local or compatible server */
  url?: string;
}

export function isAiProvider(value: unknown): value is AiProvider {
  return (AI_PROVIDERS as readonly unknown[]).includes(value);
}
