import { string as stringArg } from '@oclif/core/args';
import { boolean, string } from '@oclif/core/flags';
import { BrandwireCommand } from '../../base-command';
import { AI_PROVIDERS } from '@brandwire/ai';
import { aiFailure, providerSettings, unknownModel, withProvider } from '../../lib/ai-model';
import { usageError } from '../../lib/cli-error';
import { writeConfig } from '../../lib/config-store';
import { runningGateway } from '../../lib/gateway-control';
import { fields } from '../../lib/output';

export interface ModelSetResult {
  ok: true;
  provider: string;
  model: string;
  /** false with --no-check: the provider was not asked whether it offers the model */
  checked: boolean;
  configPath: string;
}

export default class ModelSet extends BrandwireCommand {
  static override summary = 'Select the AI model the gateway and `knowledge search` use';
  static override description =
    'Stores the model id in gateway.ai of the config, after checking that the provider offers it to the stored key (--no-check skips the check, for a provider that cannot be reached now). --provider and --url change the provider too. A running gateway uses the new model after `brandwire gateway restart`.';
  static override examples = ['<%= config.bin %> model set gpt-4o-mini', '<%= config.bin %> model set llama3.2 --provider ollama --url http://127.0.0.1:11434/v1 --json'];
  static override args = { id: stringArg({ description: 'the model id, as `brandwire model list` shows it', required: true }) };
  static override flags = {
    provider: string({ description: 'the provider offering it (default: the stored one)', options: [...AI_PROVIDERS], helpValue: '<name>' }),
    url: string({ description: "base URL of the provider's API (OpenAI's with /v1)", helpValue: '<url>' }),
    check: boolean({ description: 'ask the provider whether it offers the model (--no-check to skip)', default: true, allowNo: true }),
  };

  async run(): Promise<ModelSetResult> {
    const { args, flags } = await this.parse(ModelSet);
    const session = this.session();
    const stored = session.config.gateway?.ai;
    const ai = await providerSettings(stored, flags);
    const id = args.id.trim();
    if (id === '') throw usageError('the model id is empty', 'see `brandwire model list`');
    if (flags.check) {
      const { listModels } = await import('@brandwire/ai');
      const models = await listModels(ai).catch((error: unknown) => {
        throw aiFailure(ai, 'listing the models', error, 'check gateway.ai in the config (provider, apiKey, url), or store the model anyway with --no-check');
      });
      if (!models.some((m) => m.id === id)) throw unknownModel(ai, id, models);
    }
    writeConfig(session.configPath, {
      ...session.config,
      gateway: { ...session.config.gateway, ai: { ...withProvider(stored, ai.provider), model: id, ...(ai.url !== undefined && { url: ai.url }) } },
    });
    const result: ModelSetResult = { ok: true, provider: ai.provider, model: id, checked: flags.check, configPath: session.configPath };
    await this.show(() =>
      [
        `Selected ${ai.provider}/${id}${flags.check ? '' : ' (not checked with the provider)'}.`,
        fields([['config', session.configPath]]),
        ...(runningGateway() ? ['The running gateway uses it after `brandwire gateway restart`.'] : []),
      ].join('\n'),
    );
    return result;
  }
}
