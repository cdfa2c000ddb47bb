import { AiUnavailableError } from './ai-error';
import type { AiSettings } from './ai-settings';
import { authHeaders, apiRoot, callProvider } from './provider-http';

export interface ModelInfo {
  id: string;
  /** the provider's display name, when it gives one */
  name?: string;
  /** when the provider published it, ISO 8601, when it says */
  created?: string;
}

/** Anthropic pages its list; more than this many pages is not a list of models any more. */
const MAX_PAGES = 20;

/** The models the provider offers to this key, sorted by id. `model` of the settings is not needed. */
export async function listModels(ai: AiSettings, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<ModelInfo[]> {
  const headers = authHeaders(ai);
  const base = apiRoot(ai);
  const models: ModelInfo[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query = ai.provider === 'anthropic' ? `?limit=1000${after ? `&after_id=${encodeURIComponent(after)}` : ''}` : '';
    const data = await callProvider(ai, { method: 'GET', url: `${base}/models${query}`, headers }, options);
    const items = (data as { data?: unknown }).data;
    if (!Array.isArray(items)) throw new AiUnavailableError(ai.provider, ai.model, 'the model list had no `data` array', ai.apiKey);
    for (const item of items) {
      const model = modelOf(item);
      if (model) models.push(model);
    }
    const more = (data as { has_more?: unknown; last_id?: unknown }).has_more === true ? (data as { last_id?: unknown }).last_id : undefined;
    if (typeof more !== 'string' || more === after) break;
    after = more;
  }
  return models.sort((a, b) => a.id.localeCompare(b.id));
}

function modelOf(item: unknown): ModelInfo | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { id, display_name: name, created, created_at: createdAt } = item as { id?: unknown; display_name?: unknown; created?: unknown; created_at?: unknown };
  if (typeof id !== 'string' || id === '') return undefined;
  const model: ModelInfo = { id };
  if (typeof name === 'string' && name !== '') model.name = name;
  // OpenAI and compatible servers give Unix seconds, Anthropic an ISO 8601 string
  const when = typeof created === 'number' ? new Date(created * 1000) : typeof createdAt === 'string' ? new Date(createdAt) : undefined;
  if (when && !Number.isNaN(when.getTime())) model.created = when.toISOString();
  return model;
}
