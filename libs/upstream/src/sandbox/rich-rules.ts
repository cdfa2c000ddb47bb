import { isLongerThan, RICH_BUBBLE_TYPES, type RichBubbleType } from '@brandwire/domain';
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
  isHttpUrl,
  isObj,
  notOneOf,
  optionalString,
  shownButton,
  stringFields,
} from './button-rules';
import { checkItem, checkRichUpload } from './list-item-rules';

/**
 * The rich envelope rules of the service specification (Rich envelope, Buttons, Quick replies, Limits),
 * enforced as the messenger does: the first broken rule is reported with its field path.
 */
export type BubbleType = RichBubbleType;

export interface RichBubble {
  type: BubbleType;
  text: string | null;
  imageUrl: string | null;
  quickReplies: Obj[];
  /** what the chat shows of the buttons (see shownButton) */
  buttons: Obj[];
  /** what the chat shows of the entries of `attachment.item.list` */
  items: Obj[];
  /** what the chat shows of the cards of a CAROUSEL_FEED (see checkCarousel) */
  cards: Obj[];
}

export type RichCheck = RuleCheck<RichBubble>;

export const MIN_CAROUSEL_CARDS = 2;
export const MAX_CAROUSEL_CARDS = 6;
export const MAX_TEXT = 1000;
export const MAX_WIDE_TEXT = 76;

/** Maximum buttons per bubble type (TEXT, IMAGE and ITEM_LIST lose one when a coupon is attached). */
export function buttonLimit(type: BubbleType, withCoupon: boolean): number {
  switch (type) {
    case 'TEXT':
    case 'IMAGE':
    case 'ITEM_LIST':
      return withCoupon ? 4 : 5;
    case 'WIDE':
    case 'WIDE_ITEM_LIST':
    case 'CAROUSEL_FEED':
      return 2;
    case 'PERSONAL':
      return 0;
  }
}

export function validateRichEnvelope(env: Obj, ctx: RuleContext): RichCheck {
  return checkRules(() => check(env, ctx));
}

function check(env: Obj, ctx: RuleContext): RichBubble {
  const type = bubbleTypeOf(env['chat_bubble_type']);
  const message = env['message'];
  if (message !== undefined && message !== null && typeof message !== 'string') throw invalid('message must be a string');
  const text = typeof message === 'string' && message.length > 0 ? message : null;
  const maxText = type === 'WIDE' ? MAX_WIDE_TEXT : MAX_TEXT;
  if (text !== null && isLongerThan(text, maxText)) {
    throw new RuleViolation(Code.MessageLengthOverLimit, `message is longer than ${maxText} characters for ${type}`);
  }
  const attachment = env['attachment'];
  if (attachment !== undefined && attachment !== null && !isObj(attachment)) throw invalid('attachment must be an object');
  const att: Obj = isObj(attachment) ? attachment : {};
  checkAutoAnswer(env['auto_answer'], type === 'TEXT', 'chat_bubble_type TEXT');
  if (type === 'PERSONAL') return { type, text, imageUrl: null, quickReplies: [], buttons: [], items: [], cards: [] };

  const carousel = env['carousel'] ?? att['carousel'];
  const hasText = text !== null && text.trim().length > 0;
  if (!hasText && !isObj(attachment) && carousel === undefined) {
    throw invalid(text === null ? 'one of message and attachment is required' : 'message is only whitespace and there is no attachment');
  }
  const imageUrl = checkImage(att, 'attachment', ctx, type === 'IMAGE' || type === 'WIDE' ? type : null);
  const coupon = att['coupon'];
  if (coupon !== undefined && coupon !== null && !isObj(coupon)) throw invalid('attachment.coupon must be an object');
  const withCoupon = isObj(coupon);
  const why = withCoupon && buttonLimit(type, true) !== buttonLimit(type, false) ? `${type} with a coupon` : type;
  const buttons = checkButtons(att['buttons'], 'attachment.buttons', buttonLimit(type, withCoupon), ctx, why).map(shownButton);
  const quickReplies = checkQuickReplies(att['quick_replies'], 'attachment.quick_replies', ctx);

  const item = att['item'];
  if (item !== undefined && item !== null && !isObj(item)) throw invalid('attachment.item must be an object');
  if ((type === 'ITEM_LIST' || type === 'WIDE_ITEM_LIST') && !isObj(item)) throw invalid(`attachment.item is required for ${type}`);
  const items = isObj(item) ? checkItem(item, 'attachment.item', ctx) : [];
  const cards = type === 'CAROUSEL_FEED' ? checkCarousel(carousel, env['carousel'] !== undefined ? 'carousel' : 'attachment.carousel', ctx) : [];
  if (!hasText && !SHOWN_PARTS.some((part) => carries(part === 'carousel' ? carousel : att[part]))) {
    const noText = text === null ? 'there is no message' : 'message is only whitespace';
    throw invalid(`${noText} and the attachment carries nothing to show (one of ${SHOWN_PARTS.join(', ')} is needed)`);
  }
  return { type, text, imageUrl, quickReplies, buttons, items, cards };
}

/** What a bubble without text must carry in its attachment (or, for carousel, at the top level) to show anything. */
const SHOWN_PARTS = ['image', 'buttons', 'quick_replies', 'item', 'carousel', 'coupon'] as const;

/** A part that is there: given, and not an empty list. */
function carries(part: unknown): boolean {
  return part !== undefined && part !== null && !(Array.isArray(part) && part.length === 0);
}

function bubbleTypeOf(v: unknown): BubbleType {
  if (v === undefined || v === null || v === '') throw invalid('chat_bubble_type is required');
  if (v === 'MSGR_CERT') throw invalid('chat_bubble_type MSGR_CERT is not supported');
  if (typeof v !== 'string' || !(RICH_BUBBLE_TYPES as readonly string[]).includes(v)) {
    throw notOneOf('chat_bubble_type', v, RICH_BUBBLE_TYPES);
  }
  return v as BubbleType;
}

/** `<path>.image.img_url`: required for IMAGE and WIDE; when present, a *rich* image upload. */
function checkImage(att: Obj, path: string, ctx: RuleContext, requiredFor: string | null): string | null {
  const image = att['image'];
  if (image === undefined || image === null) {
    if (requiredFor) throw invalid(`${path}.image.img_url is required for ${requiredFor}`);
    return null;
  }
  if (!isObj(image)) throw invalid(`${path}.image must be an object`);
  const url = optionalString(image, 'img_url', `${path}.image`, 1000);
  if (url === undefined || url === '') {
    if (requiredFor) throw invalid(`${path}.image.img_url is required for ${requiredFor}`);
    throw invalid(`${path}.image.img_url is required when ${path}.image is given`);
  }
  checkRichUpload(url, `${path}.image.img_url`, ctx);
  const link = optionalString(image, 'img_link', `${path}.image`, 1000);
  if (link !== undefined && !isHttpUrl(link)) throw invalid(`${path}.image.img_link must be an http or https URL`);
  return url;
}

/**
 * CAROUSEL_FEED: 2 to 6 cards (an array, or an object with `list`); each card up to 2 buttons. Returns what the chat
 * shows of each card: `header`, `message`, `img_url` and `buttons`.
 */
function checkCarousel(carousel: unknown, path: string, ctx: RuleContext): Obj[] {
  if (carousel === undefined || carousel === null) throw invalid('carousel is required for CAROUSEL_FEED');
  const cards = Array.isArray(carousel) ? carousel : isObj(carousel) ? carousel['list'] : undefined;
  const listPath = Array.isArray(carousel) ? path : `${path}.list`;
  if (!Array.isArray(cards)) throw invalid(`${listPath} must be an array of cards`);
  if (cards.length < MIN_CAROUSEL_CARDS || cards.length > MAX_CAROUSEL_CARDS) {
    throw invalid(`${listPath} has ${cards.length} cards; ${MIN_CAROUSEL_CARDS} to ${MAX_CAROUSEL_CARDS} are allowed`);
  }
  return cards.map((card, i) => {
    const p = `${listPath}[${i}]`;
    if (!isObj(card)) throw invalid(`${p} must be an object`);
    const header = card['header'];
    if (header !== undefined && header !== null && typeof header !== 'string') throw invalid(`${p}.header must be a string`);
    const message = optionalString(card, 'message', p, MAX_TEXT);
    const cardAtt = card['attachment'];
    if (cardAtt !== undefined && !isObj(cardAtt)) throw invalid(`${p}.attachment must be an object`);
    if (!message && !isObj(cardAtt) && !card['header']) throw invalid(`${p} needs a header, message or attachment`);
    const att: Obj = isObj(cardAtt) ? cardAtt : {};
    const imageUrl = checkImage(att, `${p}.attachment`, ctx, null);
    const inAttachment = att['buttons'] !== undefined;
    const buttonsPath = inAttachment ? `${p}.attachment.buttons` : `${p}.buttons`;
    const buttons = checkButtons(inAttachment ? att['buttons'] : card['buttons'], buttonsPath, 2, ctx, 'a CAROUSEL_FEED card');
    return { ...stringFields(card, ['header', 'message']), ...(imageUrl !== null ? { img_url: imageUrl } : {}), buttons: buttons.map(shownButton) };
  });
}
