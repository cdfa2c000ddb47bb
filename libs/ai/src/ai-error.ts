/** The model could not be asked or gave no usable answer; the message names the provider and never holds the API key. */
export class AiUnavailableError extends Error {
  override readonly name: string = 'AiUnavailableError';

  constructor(
    readonly provider: string,
    readonly model: string,
    what: string,
    apiKey?: string,
  ) {
    const message = `${provider}${model ? `/${model}` : ''}: ${what}`;
    super(apiKey ? message.split(apiKey).join('***') : message);
  }
}

/**
 * The provider needs an API key and none is set (`gateway.ai.apiKey`): a setting to fix, not a provider out of
 * reach. No call was made. Still an AiUnavailableError for whoever only needs to know that the model cannot answer.
 */
export class AiKeyMissingError extends AiUnavailableError {
  override readonly name = 'AiKeyMissingError';
  readonly setting = 'gateway.ai.apiKey';

  constructor(provider: string, model: string) {
    super(provider, model, 'no API key is set (gateway.ai.apiKey)');
  }
}
