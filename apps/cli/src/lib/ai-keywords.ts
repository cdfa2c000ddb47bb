import { CliError } from './cli-error';
import { EXIT } from './exit-codes';

/** The AI settings keyword extraction needs (`gateway.ai` of the config). */
export interface AiModelSettings {
  provider: string;
  model: string;
  apiKey?: string;
  /** base URL of the provider's API; for a local or compatible server */
  url?: string;
}

const TIMEOUT_MS = 20_000;
const MAX_KEYWORDS = 8;

const SYSTEM_PROMPT = [
  'You turn a question about past customer-support conversations into search keywords.',
  `Answer with a JSON array of 1 to ${MAX_KEYWORDS} keywords and nothing else, e.g. ["refund","card"].`,
  'Write the keywords in the language of the question: the nouns and verbs a customer or an agent would have written in those conversations.',
].join(' ');

/**
 * Asks the configured model for the search keywords of a natural-language question.
 * Failures become a CliError AI_UNAVAILABLE naming the provider; the API key is never part of a message.
 */
export async function extractKeywords(ai: AiModelSettings, question: string): Promise<string[]> {
  const request = requestOf(ai, question);
  const { default: axios } = await import('axios');
  let data: unknown;
  try {
    const response = await axios.post(request.url, request.body, { headers: request.headers, timeout: TIMEOUT_MS });
    data = response.data;
  } catch (error) {
    throw aiUnavailable(ai, `the request to ${request.url} failed: ${describe(error, axios.isAxiosError(error))}`);
  }
  // a wrong url or a proxy's login page answers 200 too, with a page instead of the provider's JSON
  if (typeof data !== 'object' || data === null) {
    const start = String(data).replace(/\s+/g, ' ').trim().slice(0, 60);
    throw aiUnavailable(ai, `${request.url} did not answer with the provider's JSON${start ? ` (it began: ${start})` : ''}`);
  }
  const text = answerText(ai.provider, data);
  if (text === undefined) throw aiUnavailable(ai, 'the answer had no text');
  const keywords = parseKeywords(text);
  if (keywords.length === 0) throw aiUnavailable(ai, 'the answer held no keywords');
  return keywords;
}

/** The keywords in a model's answer: a JSON array somewhere in the text, else the text split on commas and newlines. */
export function parseKeywords(text: string): string[] {
  let items: unknown[] | undefined;
  const match = /\[[\s\S]*\]/.exec(text);
  if (match) {
    try {
      const parsed: unknown = JSON.parse(match[0]);
      if (Array.isArray(parsed)) items = parsed;
    } catch {
      items = undefined;
    }
  }
  const raw = items ?? text.replace(/^\s*\[|\]\s*$/g, '').split(/[,\n]/);
  const seen = new Set<string>();
  const keywords: string[] = [];
  for (const item of raw) {
    if (typeof item !== 'string' && typeof item !== 'number') continue;
    const word = String(item)
      .trim()
      .replace(/^[-*•\d.)\s]+(?=\S)/u, '')
      .replace(/^["'`]+|["'`]+$/g, '')
      .trim();
    if (word === '' || seen.has(word.toLowerCase())) continue;
    seen.add(word.toLowerCase());
    keywords.push(word);
    if (keywords.length === MAX_KEYWORDS) break;
  }
  return keywords;
}

interface AiRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

function requestOf(ai: AiModelSettings, question: string): AiRequest {
  const base = (fallback: string): string => (ai.url ?? fallback).replace(/\/+$/, '');
  switch (ai.provider) {
    case 'openai':
    case 'ollama': {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (ai.apiKey) headers['authorization'] = `Bearer ${ai.apiKey}`;
      else if (ai.provider === 'openai') throw aiUnavailable(ai, 'no API key is set (gateway.ai.apiKey; `brandwire setup --ai-api-key <key>`)');
      return {
        url: `${base(ai.provider === 'openai' ? 'https://api.openai.com/v1' : 'http://127.0.0.1:11434/v1')}/chat/completions`,
        headers,
        body: {
          model: ai.model,
          temperature: 0,
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            { role: 'user', content: question },
          ],
        },
      };
    }
    case 'anthropic': {
      if (!ai.apiKey) throw aiUnavailable(ai, 'no API key is set (gateway.ai.apiKey; `brandwire setup --ai-api-key <key>`)');
      return {
        url: `${base('https://api.anthropic.com')}/v1/messages`,
        headers: { 'content-type': 'application/json', 'x-api-key': ai.apiKey, 'anthropic-version': '2023-06-01' },
        body: { model: ai.model, max_tokens: 200, system: SYSTEM_PROMPT, messages: [{ role: 'user', content: question }] },
      };
    }
    default:
      throw aiUnavailable(ai, 'this provider is not supported (use openai, anthropic or ollama)');
  }
}

function answerText(provider: string, data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  if (provider === 'anthropic') {
    const content = (data as { content?: unknown }).content;
    if (!Array.isArray(content)) return undefined;
    const text = content
      .map((part: unknown) => (typeof part === 'object' && part !== null && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
      .join('');
    return text.trim() === '' ? undefined : text;
  }
  const choices = (data as { choices?: unknown }).choices;
  const content = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content : undefined;
  return typeof content === 'string' && content.trim() !== '' ? content : undefined;
}

/** What went wrong, without the request (its headers hold the key). */
function describe(error: unknown, isAxios: boolean): string {
  if (isAxios) {
    const e = error as { code?: string; message: string; response?: { status: number; statusText?: string; data?: unknown } };
    if (e.response) {
      const detail = providerMessage(e.response.data);
      return `HTTP ${e.response.status}${e.response.statusText ? ` ${e.response.statusText}` : ''}${detail ? `: ${detail}` : ''}`;
    }
    if (e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT') return `no answer within ${TIMEOUT_MS / 1000} s`;
    return e.code ? `${e.code} (${e.message})` : e.message;
  }
  return error instanceof Error ? error.message : String(error);
}

function providerMessage(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const error = (data as { error?: unknown }).error;
  const message = typeof error === 'object' && error !== null ? (error as { message?: unknown }).message : error;
  return typeof message === 'string' ? message.slice(0, 200) : undefined;
}

function aiUnavailable(ai: AiModelSettings, what: string): CliError {
  const message = `AI keyword extraction with ${ai.provider}/${ai.model} failed: ${what}`;
  const safe = ai.apiKey ? message.split(ai.apiKey).join('***') : message;
  return new CliError(
    'AI_UNAVAILABLE',
    safe,
    EXIT.error,
    { provider: ai.provider, model: ai.model },
    'check gateway.ai in the config (`brandwire setup --ai-provider … --ai-model … --ai-api-key …`), or search without AI using --cypher',
  );
}
