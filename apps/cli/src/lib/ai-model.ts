import { AI_PROVIDERS, AiKeyMissingError, type AiProvider, type AiSettings, type ModelInfo, isAiProvider } from '@brandwire/ai';
import { distance } from 'fastest-levenshtein';
import { CliError, usageError } from './cli-error';
import type { GatewaySettings } from './config-store';
import { checkHttpUrl } from './connect';
import { EXIT } from './exit-codes';

type StoredAi = NonNullable<GatewaySettings['ai']>;

const PROVIDER_HINT = 'store one with `brandwire setup <key> --ai-provider openai|anthropic|ollama --ai-api-key <key>`';

/**
 * The stored AI settings once `provider` is the provider: the same one keeps everything; another keeps how the
 * gateway answers (reply mode, instructions) but not the other provider's key, url or model.
 */
export function withProvider(stored: StoredAi | undefined, provider: string | undefined): StoredAi {
  if (provider === undefined || stored?.provider === undefined || stored.provider === provider) return { ...stored, ...(provider !== undefined && { provider }) };
  return { provider, ...(stored.reply !== undefined && { reply: stored.reply }), ...(stored.instructions !== undefined && { instructions: stored.instructions }) };
}

/** The provider to ask: the stored `gateway.ai`, with `--provider` and `--url` taking over. `model` may be unset here. */
export async function providerSettings(stored: StoredAi | undefined, given: { provider?: string; url?: string }): Promise<AiSettings> {
  const ai = withProvider(stored, given.provider);
  const url = given.url === undefined ? ai.url : await checkAiUrl(given.url, '--url');
  return { provider: providerOf(ai, ' (or pass --provider)'), model: ai.model ?? '', ...(ai.apiKey && { apiKey: ai.apiKey }), ...(url !== undefined && { url }) };
}

/** The model to ask: a provider and a selected model are needed. */
export function selectedModel(stored: StoredAi | undefined): AiSettings {
  const provider = providerOf(stored, '');
  if (!stored?.model) throw new CliError('CONFIG', 'no AI model is selected', EXIT.error, { setting: 'gateway.ai' }, '`brandwire model list`, then `brandwire model set <id>`');
  return { provider, model: stored.model, ...(stored.apiKey && { apiKey: stored.apiKey }), ...(stored.url && { url: stored.url }) };
}

/** The stored provider, one the tools speak to; CONFIG naming what to set otherwise. */
export function providerOf(stored: StoredAi | undefined, hintTail: string): AiProvider {
  if (!stored?.provider) throw new CliError('CONFIG', 'no AI provider is set', EXIT.error, { setting: 'gateway.ai' }, `${PROVIDER_HINT}${hintTail}`);
  if (!isAiProvider(stored.provider)) throw new CliError('CONFIG', `gateway.ai.provider must be one of ${AI_PROVIDERS.join(', ')}, got "${stored.provider}"`, EXIT.error, { setting: 'gateway.ai' }, PROVIDER_HINT);
  return stored.provider;
}

/**
 * A provider's base URL: http(s), without credentials, a query or a fragment (paths are added after it, and the
 * URL is shown in messages, where a secret in it would be too).
 */
export async function checkAiUrl(value: string, flag: string): Promise<string> {
  const url = await checkHttpUrl(value, flag);
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw usageError(`${flag} must be a base URL without credentials, query or fragment, got ${JSON.stringify(`${url.protocol}//${url.host}${url.pathname}…`)}`, 'the API key goes in --ai-api-key');
  }
  return value.replace(/\/+$/, '');
}

/**
 * A model's failure as the tool's AI_UNAVAILABLE: what was being done, with which model, and why; never the key. A
 * provider that needs a key and has none is CONFIG instead, naming the setup flag that stores one.
 */
export function aiFailure(ai: AiSettings, doing: string, error: unknown, hint: string): CliError {
  if (error instanceof AiKeyMissingError) {
    return new CliError(
      'CONFIG',
      `${ai.provider} needs an API key, and none is stored (${error.setting})`,
      EXIT.error,
      { provider: ai.provider, ...(ai.model && { model: ai.model }), setting: error.setting },
      `store it with \`brandwire setup <key> --ai-provider ${ai.provider} --ai-api-key <provider key>\``,
    );
  }
  const prefix = `${ai.provider}${ai.model ? `/${ai.model}` : ''}: `;
  const why = error instanceof Error ? error.message : String(error);
  const message = `${doing} with ${prefix.slice(0, -2)} failed: ${why.startsWith(prefix) ? why.slice(prefix.length) : why}`;
  return new CliError('AI_UNAVAILABLE', ai.apiKey ? message.split(ai.apiKey).join('***') : message, EXIT.error, { provider: ai.provider, ...(ai.model && { model: ai.model }) }, hint);
}

/**
 * An id the provider does not offer, with the ones it offers that look like it: those containing it (or contained in
 * it), then those within a few edits of it (as a mistyped command is matched), closest first.
 */
export function unknownModel(ai: AiSettings, id: string, models: readonly ModelInfo[]): CliError {
  const needle = id.toLowerCase();
  const most = Math.max(2, Math.floor(needle.length / 3));
  const close = models
    .map((m) => {
      const other = m.id.toLowerCase();
      return { id: m.id, rank: other.includes(needle) || needle.includes(other) ? -1 : distance(needle, other) };
    })
    .filter((m) => m.rank <= most)
    .sort((a, b) => a.rank - b.rank)
    .slice(0, 5);
  return new CliError(
    'MODEL_UNKNOWN',
    `${ai.provider} offers no model "${id}" to this key${close.length > 0 ? `; did you mean ${close.map((m) => m.id).join(', ')}?` : ''}`,
    EXIT.error,
    { provider: ai.provider, model: id },
    'see `brandwire model list`',
  );
}
