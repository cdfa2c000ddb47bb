/** The model could not be asked or gave no usable answer; the message names the provider and never holds the API key. */
export class AiUnavailableError extends Error {
  override readonly name = 'AiUnavailableError';

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
