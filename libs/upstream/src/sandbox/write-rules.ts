import { MAX_TEXT_CHARACTERS, isLongerThan } from '@brandwire/domain';
import { Code } from '../result-codes';
import {
  Obj,
  RuleCheck,
  RuleContext,
  RuleViolation,
  checkAutoAnswer,
  checkRules,
  checkButtons,
  checkQuickReplies,
  invalid,
  isObj,
  notOneOf,
  shownButton,
} from './button-rules';
import { ChatBubbleKind } from './control-types';

/** Rules of the plain write call (`/v1/write`): TX, LI, IM, FI, AU. */
export const MESSAGE_TYPES = ['TX', 'LI', 'IM', 'FI', 'AU'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export const MAX_PLAIN_TEXT = MAX_TEXT_CHARACTERS;
export const MAX_LINKS = 5;

export interface WrittenBubble {
  kind: ChatBubbleKind;
  text: string | null;
  imageUrl: string | null;
  quickReplies: Obj[];
  /** what the chat shows of the `links` of an LI message */
  buttons: Obj[];
}

export type WriteCheck = RuleCheck<WrittenBubble>;

export function validateWrite(body: Obj, ctx: RuleContext): WriteCheck {
  return checkRules(() => check(body, ctx));
}

function check(body: Obj, ctx: RuleContext): WrittenBubble {
  const type = messageTypeOf(body['message_type']);
  if (type !== 'LI') {
    for (const f of ['links', 'supplement', 'auto_answer']) {
      if (body[f] !== undefined && body[f] !== null) throw invalid(`${f} is only allowed with message_type LI`);
    }
  }
  switch (type) {
    case 'TX':
      return { kind: 'text', text: textOf(body, type), imageUrl: null, quickReplies: [], buttons: [] };
    case 'LI': {
      const text = textOf(body, type);
      const buttons = checkButtons(body['links'], 'links', MAX_LINKS, ctx, 'message_type LI').map(shownButton);
      const supplement = body['supplement'];
      if (supplement !== undefined && supplement !== null && !isObj(supplement)) {
        throw invalid('supplement must be an object');
      }
      const quickReplies = isObj(supplement)
        ? checkQuickReplies(supplement['quick_reply'], 'supplement.quick_reply', ctx)
        : [];
      checkAutoAnswer(body['auto_answer'], true, 'message_type LI');
      return { kind: 'text', text, imageUrl: null, quickReplies, buttons };
    }
    case 'IM': {
      const url = body['image_url'];
      if (typeof url !== 'string' || url.length === 0) throw invalid('image_url is required for message_type IM');
      const kind = ctx.uploadKindOf(url);
      if (kind === undefined) throw invalid('image_url is not an image uploaded to the messenger');
      if (kind !== 'plain') {
        throw new RuleViolation(Code.InvalidImage, `image_url was uploaded as ${kind}; message_type IM needs image_type plain`);
      }
      return { kind: 'image', text: null, imageUrl: url, quickReplies: [], buttons: [] };
    }
    case 'FI':
    case 'AU': {
      const url = body['file_url'];
      if (typeof url !== 'string' || url.length === 0) throw invalid(`file_url is required for message_type ${type}`);
      const kind = ctx.uploadKindOf(url);
      if (kind === undefined) throw invalid('file_url is not a file uploaded to the messenger');
      const fits = type === 'AU' ? kind === 'audio' : kind === 'file' || kind === 'video';
      if (!fits) throw invalid(`file_url was uploaded as ${kind}, which message_type ${type} cannot send`);
      const name = body['file_name'];
      if (name !== undefined && typeof name !== 'string') throw invalid('file_name must be a string');
      const size = body['file_size'];
      if (size !== undefined && (typeof size !== 'number' || !Number.isInteger(size) || size < 0)) {
        throw invalid('file_size must be a non-negative integer');
      }
      return { kind: 'file', text: typeof name === 'string' && name ? name : url, imageUrl: null, quickReplies: [], buttons: [] };
    }
  }
}

/** A missing or unknown message_type is a bad parameter (-509), not a malformed message (-510). */
function messageTypeOf(v: unknown): MessageType {
  if (v === undefined || v === null || v === '') throw new RuleViolation(Code.InvalidJson, 'message_type is required');
  if (typeof v !== 'string' || !(MESSAGE_TYPES as readonly string[]).includes(v)) {
    throw notOneOf('message_type', v, MESSAGE_TYPES, Code.InvalidJson);
  }
  return v as MessageType;
}

function textOf(body: Obj, type: MessageType): string {
  const m = body['message'];
  if (m !== undefined && m !== null && typeof m !== 'string') throw invalid('message must be a string');
  if (typeof m !== 'string' || m.length === 0) throw invalid(`message is required for message_type ${type}`);
  if (m.trim().length === 0) throw invalid(`message is required for message_type ${type} (it is only whitespace)`);
  if (isLongerThan(m, MAX_PLAIN_TEXT)) {
    throw new RuleViolation(Code.MessageLengthOverLimit, `message is longer than ${MAX_PLAIN_TEXT} characters`);
  }
  return m;
}
