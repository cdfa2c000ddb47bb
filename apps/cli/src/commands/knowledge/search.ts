import type { JsonValue, SearchHit } from '@brandwire/knowledge';
import type { MAX_SEARCH_HITS } from '@brandwire/knowledge-web';
import { string as stringArg } from '@oclif/core/args';
import { integer, string } from '@oclif/core/flags';
import { BrandwireCommand } from '../../base-command';
import type { AiSettings } from '@brandwire/ai';
import { extractKeywords } from '../../lib/ai-keywords';
import { selectedModel } from '../../lib/ai-model';
import { usageError } from '../../lib/cli-error';
import { closing, openReader } from '../../lib/knowledge-access';
import { presentHits, presentQueryResult } from '../../lib/knowledge-present';

export interface CypherSearchResult {
  ok: true;
  columns: string[];
  types: string[];
  rows: JsonValue[][];
  inexact?: string[];
}

export interface TextSearchResult {
  ok: true;
  query: string;
  /** how the graph was searched: full-text search over inquiries and responses */
  method: 'full-text';
  /** with an AI model configured: the keywords it took from the question, searched instead of the question */
  keywords?: string[];
  matchedBy?: 'ai-keywords';
  hits: SearchHit[];
}

/**
 * The most hits --limit takes: the query API's MAX_SEARCH_HITS, so a search answers the same with the gateway
 * running or stopped. Typed as that constant, the compiler fails here when it changes; the value is written out
 * because the tool loads @brandwire/knowledge-web lazily (start-up time), and a flag's bounds are read at load.
 */
const MAX_HITS: typeof MAX_SEARCH_HITS = 200;

const CYPHER_HINT = 'for exact questions, query the graph with --cypher, e.g. brandwire knowledge search --cypher "MATCH (i:Inquiry) RETURN i.text LIMIT 10"';

export default class KnowledgeSearch extends BrandwireCommand {
  static override summary = 'Search the knowledge graph: a read-only Cypher query (--cypher), or words matched against past inquiries and responses';
  static override description = [
    'With --cypher, runs one read-only statement (the graph is opened read-only, or read through the running gateway) and prints every column; --json gives {"ok":true,"columns":[…],"types":[…],"rows":[…]} with numbers and booleans as JSON numbers and booleans, integers beyond 2^53 as strings, and Kuzu\'s type names in types.',
    'With words, runs a full-text search over the inquiries and responses (best first) and points to --cypher. With an AI model configured (gateway.ai: provider, model, apiKey, optional url), the question may be natural language: the model picks the keywords, which are then matched by the same full-text search and shown ("Keywords: …"; --json adds "keywords" and "matchedBy":"ai-keywords"). If the model cannot be reached the command fails with AI_UNAVAILABLE; a provider that needs an API key and has none stored is CONFIG.',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> knowledge search "refund card"',
    '<%= config.bin %> knowledge search "how did we handle card refunds?"',
    '<%= config.bin %> knowledge search --cypher "MATCH (c:Customer)-[:ASKED]->(i:Inquiry) RETURN c.userKey, i.text, i.ts LIMIT 10" --json',
  ];
  static override args = { text: stringArg({ description: 'words to search for in past inquiries and responses, or a question when an AI model is configured' }) };
  static override flags = {
    cypher: string({ description: 'one read-only Cypher statement (MATCH … RETURN …)', helpValue: '<query>' }),
    limit: integer({ description: `most hits of a word search, 1 to ${MAX_HITS} (default 20)`, min: 1, max: MAX_HITS, helpValue: '<n>' }),
  };

  async run(): Promise<CypherSearchResult | TextSearchResult> {
    const { args, flags } = await this.parse(KnowledgeSearch);
    if (flags.cypher !== undefined && args.text !== undefined) throw usageError('give either words to search for or --cypher, not both');
    if (flags.cypher !== undefined) return this.cypher(flags.cypher);
    if (args.text === undefined || args.text.trim() === '') throw usageError('nothing to search for: give words, or a query with --cypher', CYPHER_HINT.replace(/^for exact questions, /, ''));
    return this.words(args.text, flags.limit);
  }

  private async cypher(query: string): Promise<CypherSearchResult> {
    const { splitStatements } = await import('@brandwire/knowledge');
    const statements = splitStatements(query);
    if (statements.length !== 1) {
      throw usageError(
        statements.length === 0 ? 'the --cypher query has no statement' : `--cypher takes one statement, got ${statements.length}`,
        'run a `;` batch with `brandwire knowledge query`',
      );
    }
    const reader = await openReader('search', this.session());
    const result = await closing(reader.backend, (backend) => backend.cypher(query));
    await this.show(() => presentQueryResult(result));
    return { ok: true, ...result };
  }

  private async words(text: string, limit: number | undefined): Promise<TextSearchResult> {
    const ai = this.session().config.gateway?.ai;
    if (ai?.provider && ai.model) return this.aiWords(text, limit, selectedModel(ai));
    const reader = await openReader('search', this.session());
    const hits = await closing(reader.backend, (backend) => backend.search(text, limit));
    await this.show(async () => `${await presentHits(hits, text)}\n\nHint: ${CYPHER_HINT}`);
    if (this.jsonEnabled()) this.note(`Hint: ${CYPHER_HINT}`);
    return { ok: true, query: text, method: 'full-text', hits };
  }

  /** Keyword extraction by the configured model, then node matching: full-text search of the keywords. */
  private async aiWords(text: string, limit: number | undefined, ai: AiSettings): Promise<TextSearchResult> {
    const keywords = await extractKeywords(ai, text);
    const terms = keywords.join(' ');
    const reader = await openReader('search', this.session());
    const hits = await closing(reader.backend, (backend) => backend.search(terms, limit));
    await this.show(async () => `Keywords: ${keywords.join(', ')}\n${await presentHits(hits, terms)}`);
    return { ok: true, query: text, method: 'full-text', keywords, matchedBy: 'ai-keywords', hits };
  }
}
