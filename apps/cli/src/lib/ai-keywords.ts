import type { AiSettings } from '@brandwire/ai';
import { aiFailure } from './ai-model';
import type { CliError } from './cli-error';

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
export async function extractKeywords(ai: AiSettings, question: string): Promise<string[]> {
  const { complete } = await import('@brandwire/ai');
  const text = await complete(ai, { system: SYSTEM_PROMPT, turns: [{ role: 'user', content: question }], maxTokens: 200, timeoutMs: TIMEOUT_MS }).catch((error: unknown) => {
    throw keywordFailure(ai, error);
  });
  const keywords = parseKeywords(text);
  if (keywords.length === 0) throw keywordFailure(ai, new Error('the answer held no keywords'));
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

function keywordFailure(ai: AiSettings, error: unknown): CliError {
  return aiFailure(ai, 'AI keyword extraction', error, 'check gateway.ai in the config (`brandwire setup --ai-provider … --ai-model … --ai-api-key …`), or search without AI using --cypher');
}
