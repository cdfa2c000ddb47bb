import type { AiSettings, ModelInfo } from '@brandwire/ai';
import { CliError, usageError } from './cli-error';
import type { GatewaySettings } from './config-store';
import { checkEndpoint } from './connect';
import { EXIT } from './exit-codes';

export const AI_PROVIDER_OPTIONS = ['openai', 'anthropic', 'ollama'];

const SETUP_HINT = 'store the provider with `brandwire setup <key> --ai-provider openai|anthropic|ollama --ai-api-key <key>` (or pass --provider)';

/** The provider to ask: the stored `gateway.ai`, with `--provider` and `--url` taking over. `model` may be unset here. */
export function providerSettings(stored: GatewaySettings['ai'], given: { provider?: string; url?: string }): AiSettings {
  const provider = given.provider ?? stored?.provider;
  if (!provider) throw usageError('no AI provider is set', SETUP_HINT);
  // another provider's key or url is not this one's
  const same = stored?.provider === undefined || stored.provider === provider;
  const url = given.url ?? (same ? stored?.url : undefined);
  if (given.url !== undefined) checkEndpoint(given.url, '--url');
  return { provider, model: (same && stored?.model) || '', ...(same && stored?.apiKey && { apiKey: stored.apiKey }), ...(url !== undefined && { url }) };
}

/** The provider's failure as the tool's AI_UNAVAILABLE, with what to check. */
export function modelsUnavailable(ai: AiSettings, error: unknown): CliError {
  const message = `the models of ${ai.provider} could not be listed: ${error instanceof Error ? error.message.replace(/^[^:]*: /, '') : String(error)}`;
  return new CliError('AI_UNAVAILABLE', ai.apiKey ? message.split(ai.apiKey).join('***') : message, EXIT.error, { provider: ai.provider }, 'check gateway.ai in the config (provider, apiKey, url), or store the model anyway with --no-check');
}

/** An id the provider does not offer, with the ones it offers that look like it. */
export function unknownModel(ai: AiSettings, id: string, models: readonly ModelInfo[]): CliError {
  const needle = id.toLowerCase();
  const close = models.filter((m) => m.id.toLowerCase().includes(needle) || needle.includes(m.id.toLowerCase())).slice(0, 5);
  return new CliError(
    'MODEL_UNKNOWN',
    `${ai.provider} offers no model "${id}" to this key${close.length > 0 ? `; did you mean ${close.map((m) => m.id).join(', ')}?` : ''}`,
    EXIT.error,
    { provider: ai.provider, model: id },
    'see `brandwire model list`',
  );
}
