import { string } from '@oclif/core/flags';
import { BrandwireCommand } from '../../base-command';
import { AI_PROVIDERS } from '@brandwire/ai';
import { aiFailure, providerSettings } from '../../lib/ai-model';
import { table } from '../../lib/output';
import { shownControls } from '../../lib/terminal-text';

interface ListedModel {
  id: string;
  name?: string;
  created?: string;
  selected: boolean;
}

export interface ModelListResult {
  ok: true;
  provider: string;
  selected: string | null;
  models: ListedModel[];
}

export default class ModelList extends BrandwireCommand {
  static override summary = 'List the models the AI provider offers to the stored key, the selected one marked';
  static override description =
    'Asks the provider stored in gateway.ai (`brandwire setup <key> --ai-provider … --ai-api-key …`) for its models. The selected model is the one the gateway and `knowledge search` use; change it with `brandwire model set <id>`.';
  static override examples = ['<%= config.bin %> model list', '<%= config.bin %> model list --provider ollama --url http://127.0.0.1:11434/v1 --json'];
  static override flags = {
    provider: string({ description: 'ask this provider instead of the stored one', options: [...AI_PROVIDERS], helpValue: '<name>' }),
    url: string({ description: "base URL of the provider's API (OpenAI's with /v1)", helpValue: '<url>' }),
  };

  async run(): Promise<ModelListResult> {
    const { flags } = await this.parse(ModelList);
    const ai = await providerSettings(this.session().config.gateway?.ai, flags);
    const { listModels } = await import('@brandwire/ai');
    const models = await listModels(ai).catch((error: unknown) => {
      throw aiFailure(ai, 'listing the models', error, 'check gateway.ai in the config (provider, apiKey, url)');
    });
    const selected = ai.model || null;
    const result: ModelListResult = { ok: true, provider: ai.provider, selected, models: models.map((m) => ({ ...m, selected: m.id === selected })) };
    await this.show(async () => {
      if (models.length === 0) return `${ai.provider} offers no models to this key.`;
      // OpenAI and Ollama give no display names: no empty column for them
      const named = models.some((m) => m.name !== undefined);
      // ids and names are the provider's: shown, never obeyed
      const rows = result.models.map((m) => [m.selected ? '*' : '', shownControls(m.id), ...(named ? [shownControls(m.name ?? '')] : []), m.created?.slice(0, 10) ?? '']);
      const missing = selected !== null && !result.models.some((m) => m.selected) ? `\nThe selected model ${selected} is not among them: choose one with \`brandwire model set <id>\`.` : '';
      return `${await table(['', 'MODEL', ...(named ? ['NAME'] : []), 'CREATED'], rows)}\n${models.length} models of ${ai.provider}${selected ? `; * selected` : '; none selected: `brandwire model set <id>`'}${missing}`;
    });
    return result;
  }
}
