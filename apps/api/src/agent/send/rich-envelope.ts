import { type BubbleKind, jsonTypeOf, listInWords, RICH_BUBBLE_TYPES } from '@brandwire/domain';
import { fail } from '../../common/errors/envelope';
import { describeJsonDefect, jsonDefect } from '../../common/http/json-content';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../common/http/json-depth';

const SERVER_FILLED = ['user_key', 'sender_key', 'serial_number'] as const;

export interface RichEnvelope {
  envelope: Record<string, unknown>;
  bubbleType: string;
  /** the bubble's text, for the journal and for delete by text */
  message: string | null;
  kind: BubbleKind;
}

/**
 * Reads the `rich` string: JSON of an object, without the fields the server fills, and not an identity
 * verification bubble. Every other rule of the envelope is the messenger's, passed through as its code.
 */
export function parseRichEnvelope(rich: string): RichEnvelope {
  let parsed: unknown;
  try {
    parsed = JSON.parse(rich);
  } catch (error) {
    throw fail('BAD_RICH', `rich is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw fail('BAD_RICH', 'rich must be a JSON object (the rich envelope)');
  if (nestsDeeperThan(parsed, MAX_JSON_DEPTH)) throw fail('BAD_RICH', `rich nests deeper than ${MAX_JSON_DEPTH} levels`);
  const defect = jsonDefect(parsed);
  if (defect !== undefined) throw fail('BAD_RICH', describeJsonDefect(defect, 'rich'));
  const envelope = parsed as Record<string, unknown>;
  for (const field of SERVER_FILLED) {
    if (field in envelope) throw fail('BAD_RICH', `rich must not contain ${field}: the server fills it`);
  }
  const bubbleType = envelope['chat_bubble_type'];
  if (bubbleType === undefined || bubbleType === null || bubbleType === '') throw fail('BAD_RICH', 'rich.chat_bubble_type is required');
  if (typeof bubbleType !== 'string') {
    throw fail('BAD_RICH', `rich.chat_bubble_type must be one of ${listInWords(RICH_BUBBLE_TYPES)} (a string), not ${jsonTypeOf(bubbleType)}`);
  }
  if (bubbleType === 'MSGR_CERT') throw fail('UNSUPPORTED_BUBBLE', 'chat_bubble_type MSGR_CERT (identity verification) is not supported');
  const message = typeof envelope['message'] === 'string' ? envelope['message'] : null;
  return { envelope, bubbleType, message, kind: bubbleType === 'PERSONAL' ? 'consent' : 'rich' };
}
