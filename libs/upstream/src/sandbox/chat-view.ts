import { Obj, isObj } from './button-rules';
import { ChatBubble, ChatButton, ChatCard, ChatListItem } from './control-types';
import { Bubble } from './state';

export const DELETED_PLACEHOLDER = 'This message was deleted.';

/** What the customer sees of a bubble (its parts were checked against the messenger's rules when it was sent). */
export function viewOf(b: Bubble): ChatBubble {
  const view: ChatBubble = { serial: b.serial, from: b.from, kind: b.kind, deleted: b.deleted };
  if (b.deleted) {
    view.text = DELETED_PLACEHOLDER;
    return view;
  }
  if (b.text !== null) view.text = b.text;
  if (b.imageUrl !== null) view.imageUrl = b.imageUrl;
  if (b.buttons.length > 0) view.buttons = b.buttons.map(buttonView);
  if (b.quickReplies.length > 0) view.quickReplies = b.quickReplies.map(buttonView);
  if (b.items.length > 0) view.items = b.items.map(listItemView);
  if (b.cards.length > 0) view.cards = b.cards.map(cardView);
  return view;
}

function buttonView(b: Obj): ChatButton {
  const view: ChatButton = { label: text(b, 'name') ?? '', type: text(b, 'type') ?? '' };
  const url = linkOf(b);
  if (url !== undefined) view.url = url;
  return view;
}

function listItemView(item: Obj): ChatListItem {
  return defined<ChatListItem>({ title: text(item, 'title'), description: text(item, 'description'), imageUrl: text(item, 'img_url'), url: linkOf(item) });
}

function cardView(card: Obj): ChatCard {
  const buttons = Array.isArray(card['buttons']) ? card['buttons'].filter(isObj).map(buttonView) : [];
  return defined<ChatCard>({
    header: text(card, 'header'),
    message: text(card, 'message'),
    imageUrl: text(card, 'img_url'),
    buttons: buttons.length > 0 ? buttons : undefined,
  });
}

/** The web link a tap opens on a phone: the mobile one, else the PC one. */
function linkOf(o: Obj): string | undefined {
  return text(o, 'url_mobile') ?? text(o, 'url_pc');
}

function text(o: Obj, field: string): string | undefined {
  const v = o[field];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** Only the fields that have a value: the view leaves the others out. */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}
