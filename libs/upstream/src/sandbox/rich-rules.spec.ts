import { RuleContext } from './button-rules';
import { validateRichEnvelope } from './rich-rules';

const RICH = 'http://sandbox.test/files/rich.png';
const PLAIN = 'http://sandbox.test/files/plain.png';
const KINDS: Record<string, 'rich' | 'plain'> = { [RICH]: 'rich', [PLAIN]: 'plain' };

function ctx(chatbotBuilder = false): RuleContext {
  return { chatbotBuilder, uploadKindOf: (url) => KINDS[url] };
}

const wl = (i = 0) => ({ type: 'WL', name: `Open ${i}`, url_mobile: 'https://m.example.com' });
const bk = (i = 0) => ({ type: 'BK', name: `Yes ${i}` });
const many = <T>(n: number, f: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => f(i));
const text = (attachment: Record<string, unknown>) => ({ chat_bubble_type: 'TEXT', message: 'hi', attachment });
const qrs = (q: Record<string, unknown>) => text({ quick_replies: [bk(0), bk(1), bk(2), q] });
const btn = (b: Record<string, unknown>) => text({ buttons: [b] });
const card = (i: number) => ({ header: `card ${i}`, message: 'body' });
const image = { image: { img_url: RICH } };

type Case = [name: string, envelope: Record<string, unknown>, code: number, fragment: string, chatbot?: boolean];

const broken: Case[] = [
  ['chat_bubble_type is required', { message: 'x' }, -510, 'chat_bubble_type is required'],
  ['unknown chat_bubble_type', { chat_bubble_type: 'POSTER', message: 'x' }, -510, "chat_bubble_type 'POSTER' is not one of TEXT"],
  ['MSGR_CERT unsupported', { chat_bubble_type: 'MSGR_CERT', message: 'x' }, -510, 'MSGR_CERT is not supported'],
  ['message must be a string', { chat_bubble_type: 'TEXT', message: 5 }, -510, 'message must be a string'],
  ['TEXT message over 1000', { chat_bubble_type: 'TEXT', message: 'a'.repeat(1001) }, -506, 'message is longer than 1000 characters'],
  ['WIDE message over 76', { chat_bubble_type: 'WIDE', message: 'a'.repeat(77), attachment: image }, -506, 'message is longer than 76 characters for WIDE'],
  ['WIDE message of 77 emoji', { chat_bubble_type: 'WIDE', message: '\u{1F600}'.repeat(77), attachment: image }, -506, 'message is longer than 76 characters for WIDE'],
  ['message or attachment', { chat_bubble_type: 'TEXT' }, -510, 'one of message and attachment is required'],
  ['a whitespace message and no attachment', { chat_bubble_type: 'TEXT', message: ' \n\t ' }, -510, 'message is only whitespace and there is no attachment'],
  ['an empty attachment and no message', { chat_bubble_type: 'TEXT', attachment: {} }, -510, 'there is no message and the attachment carries nothing to show (one of image, buttons, quick_replies, item, carousel, coupon is needed)'],
  ['an empty attachment and a whitespace message', { chat_bubble_type: 'TEXT', message: '   ', attachment: {} }, -510, 'message is only whitespace and the attachment carries nothing to show'],
  ['an attachment of empty lists and null parts', { chat_bubble_type: 'TEXT', attachment: { buttons: [], quick_replies: [], image: null, coupon: null } }, -510, 'there is no message and the attachment carries nothing to show'],
  ['attachment must be an object', { chat_bubble_type: 'TEXT', message: 'x', attachment: [] }, -510, 'attachment must be an object'],
  ['IMAGE needs img_url', { chat_bubble_type: 'IMAGE', message: 'x' }, -510, 'attachment.image.img_url is required for IMAGE'],
  ['WIDE needs img_url', { chat_bubble_type: 'WIDE', message: 'x', attachment: { image: {} } }, -510, 'attachment.image.img_url is required for WIDE'],
  ['img_url not uploaded', { chat_bubble_type: 'IMAGE', attachment: { image: { img_url: 'https://x.test/a.png' } } }, -510, 'attachment.image.img_url is not an image uploaded to the messenger'],
  ['img_url uploaded as plain', { chat_bubble_type: 'IMAGE', attachment: { image: { img_url: PLAIN } } }, -505, 'attachment.image.img_url was uploaded as plain'],
  ['img_link http/https', { chat_bubble_type: 'IMAGE', attachment: { image: { img_url: RICH, img_link: 'ftp://x' } } }, -510, 'attachment.image.img_link must be an http or https URL'],
  ['button type', btn({ type: 'XX', name: 'a' }), -510, "attachment.buttons[0].type 'XX' is not one of BK, WL, AL, BT, BF, MD, AC"],
  ['button name required', btn({ type: 'BK' }), -510, 'attachment.buttons[0].name is required'],
  ['button name over 28', btn({ type: 'BK', name: 'n'.repeat(29) }), -510, 'attachment.buttons[0].name is longer than 28 characters'],
  ['button url over 1000', btn({ type: 'WL', name: 'a', url_mobile: `https://x.test/${'p'.repeat(990)}` }), -510, 'attachment.buttons[0].url_mobile is longer than 1000 characters'],
  ['button url scheme', btn({ type: 'WL', name: 'a', url_mobile: 'https://m.test', url_pc: 'javascript:alert(1)' }), -510, 'attachment.buttons[0].url_pc must be an http or https URL'],
  ['button WL needs url_mobile', btn({ type: 'WL', name: 'a', url_pc: 'https://x.test' }), -510, 'attachment.buttons[0].url_mobile is required for type WL'],
  ['button AL two of three', btn({ type: 'AL', name: 'a', scheme_ios: 'app://x' }), -510, 'attachment.buttons[0] of type AL needs at least two of scheme_android, scheme_ios, url_mobile'],
  ['button BF needs biz_form_key', btn({ type: 'BF', name: 'a' }), -510, 'attachment.buttons[0].biz_form_key is required for type BF'],
  ['button BT needs chatbot builder', btn({ type: 'BT', name: 'a' }), -510, 'attachment.buttons[0].type BT is only allowed on channels that use a chatbot builder'],
  ['TEXT at most 5 buttons', text({ buttons: many(6, bk) }), -510, 'attachment.buttons has 6 buttons; TEXT allows at most 5'],
  ['TEXT with coupon at most 4', text({ buttons: many(5, bk), coupon: { title: 'c' } }), -510, 'attachment.buttons has 5 buttons; TEXT with a coupon allows at most 4'],
  ['IMAGE at most 5 buttons', { chat_bubble_type: 'IMAGE', attachment: { ...image, buttons: many(6, bk) } }, -510, 'IMAGE allows at most 5'],
  ['ITEM_LIST at most 5 buttons', { chat_bubble_type: 'ITEM_LIST', attachment: { item: {}, buttons: many(6, bk) } }, -510, 'ITEM_LIST allows at most 5'],
  ['WIDE at most 2 buttons', { chat_bubble_type: 'WIDE', attachment: { ...image, buttons: many(3, wl) } }, -510, 'attachment.buttons has 3 buttons; WIDE allows at most 2'],
  ['WIDE_ITEM_LIST at most 2 buttons', { chat_bubble_type: 'WIDE_ITEM_LIST', attachment: { item: {}, buttons: many(3, bk) } }, -510, 'WIDE_ITEM_LIST allows at most 2'],
  ['CAROUSEL_FEED at most 2 buttons', { chat_bubble_type: 'CAROUSEL_FEED', carousel: { list: many(2, card) }, attachment: { buttons: many(3, bk) } }, -510, 'CAROUSEL_FEED allows at most 2'],
  ['coupon must be an object', text({ coupon: 'x' }), -510, 'attachment.coupon must be an object'],
  ['at most 10 quick replies', text({ quick_replies: many(11, bk) }), -510, 'attachment.quick_replies has 11 quick replies; at most 10 are allowed'],
  ['quick reply name required', qrs({ type: 'BK' }), -510, 'attachment.quick_replies[3].name is required'],
  ['quick reply name over 14', qrs({ type: 'BK', name: 'n'.repeat(15) }), -510, 'attachment.quick_replies[3].name is longer than 14 characters'],
  ['quick reply type required', qrs({ name: 'a' }), -510, 'attachment.quick_replies[3].type is required'],
  ['quick reply type over 2', qrs({ type: 'BKK', name: 'a' }), -510, 'attachment.quick_replies[3].type is longer than 2 characters'],
  ['quick reply type allowed', qrs({ type: 'MD', name: 'a' }), -510, "attachment.quick_replies[3].type 'MD' is not one of BK, WL, AL, BT, BF"],
  ['quick reply url_mobile over 300', qrs({ type: 'WL', name: 'a', url_mobile: `https://x.test/${'p'.repeat(290)}` }), -510, 'attachment.quick_replies[3].url_mobile is longer than 300 characters'],
  ['quick reply url_pc http/https', qrs({ type: 'WL', name: 'a', url_mobile: 'https://x.test', url_pc: 'ftp://x.test' }), -510, 'attachment.quick_replies[3].url_pc must be an http or https URL'],
  ['quick reply scheme over 300', qrs({ type: 'AL', name: 'a', scheme_ios: `app://${'s'.repeat(300)}`, scheme_android: 'a://x' }), -510, 'attachment.quick_replies[3].scheme_ios is longer than 300 characters'],
  ['quick reply extra over 100', qrs({ type: 'BK', name: 'a', extra: 'e'.repeat(101) }), -510, 'attachment.quick_replies[3].extra is longer than 100 characters'],
  ['quick reply chat_event over 50', qrs({ type: 'BT', name: 'a', chat_event: 'e'.repeat(51) }), -510, 'attachment.quick_replies[3].chat_event is longer than 50 characters', true],
  ['quick reply WL needs url_mobile', qrs({ type: 'WL', name: 'a' }), -510, 'attachment.quick_replies[3].url_mobile is required for type WL'],
  ['quick reply AL two of three', qrs({ type: 'AL', name: 'a', url_mobile: 'https://x.test' }), -510, 'attachment.quick_replies[3] of type AL needs at least two'],
  ['quick reply BF needs biz_form_key', qrs({ type: 'BF', name: 'a' }), -510, 'attachment.quick_replies[3].biz_form_key is required for type BF'],
  ['button BF with a biz_form_key that is not a string', btn({ type: 'BF', name: 'a', biz_form_key: 0 }), -510, 'attachment.buttons[0].biz_form_key must be a string'],
  ['quick reply url_target other than out', qrs({ type: 'WL', name: 'a', url_mobile: 'https://x.test', url_target: 'in' }), -510, "attachment.quick_replies[3].url_target 'in' is not allowed: the only value is out (opens the link in an external browser)"],
  ['quick reply url_target not a string', qrs({ type: 'BK', name: 'a', url_target: true }), -510, "attachment.quick_replies[3].url_target 'true' is not allowed: the only value is out"],
  ['quick reply url_target empty', qrs({ type: 'BK', name: 'a', url_target: '' }), -510, "attachment.quick_replies[3].url_target '' is not allowed"],
  ['quick reply BT needs chatbot builder', qrs({ type: 'BT', name: 'a' }), -510, 'attachment.quick_replies[3].type BT is only allowed on channels that use a chatbot builder'],
  ['CAROUSEL_FEED needs carousel', { chat_bubble_type: 'CAROUSEL_FEED', message: 'x' }, -510, 'carousel is required for CAROUSEL_FEED'],
  ['carousel at least 2 cards', { chat_bubble_type: 'CAROUSEL_FEED', carousel: { list: [card(0)] } }, -510, 'carousel.list has 1 cards; 2 to 6 are allowed'],
  ['carousel at most 6 cards', { chat_bubble_type: 'CAROUSEL_FEED', attachment: { carousel: { list: many(7, card) } } }, -510, 'attachment.carousel.list has 7 cards; 2 to 6 are allowed'],
  ['carousel card buttons at most 2', { chat_bubble_type: 'CAROUSEL_FEED', carousel: { list: [{ ...card(0), attachment: { buttons: many(3, bk) } }, card(1)] } }, -510, 'carousel.list[0].attachment.buttons has 3 buttons'],
  ['ITEM_LIST needs item', { chat_bubble_type: 'ITEM_LIST', message: 'x' }, -510, 'attachment.item is required for ITEM_LIST'],
  ['WIDE_ITEM_LIST needs item', { chat_bubble_type: 'WIDE_ITEM_LIST', message: 'x', attachment: {} }, -510, 'attachment.item is required for WIDE_ITEM_LIST'],
  ['ITEM_LIST item given as a string', { chat_bubble_type: 'ITEM_LIST', message: 'x', attachment: { item: 'x' } }, -510, 'attachment.item must be an object'],
  ['WIDE_ITEM_LIST item given as a list', { chat_bubble_type: 'WIDE_ITEM_LIST', attachment: { item: [{ title: 't' }] } }, -510, 'attachment.item must be an object'],
  ['item given as a number on a TEXT bubble', { chat_bubble_type: 'TEXT', attachment: { item: 5 } }, -510, 'attachment.item must be an object'],
  ['a list item image from elsewhere', { chat_bubble_type: 'WIDE_ITEM_LIST', message: 'x', attachment: { item: { list: [{ title: 'a', img_url: 'https://evil.example/x.jpg' }] } } }, -510, 'attachment.item.list[0].img_url is not an image uploaded to the messenger'],
  ['a list item image uploaded as plain', { chat_bubble_type: 'ITEM_LIST', attachment: { item: { list: [{ title: 'a', img_url: RICH }, { title: 'b', img_url: PLAIN }] } } }, -505, 'attachment.item.list[1].img_url was uploaded as plain; rich bubbles need image_type rich'],
  ['a list item img_url that is not a string', { chat_bubble_type: 'ITEM_LIST', attachment: { item: { list: [{ title: 'a', img_url: 5 }] } } }, -510, 'attachment.item.list[0].img_url must be a string'],
  ['an image from elsewhere in another part of the item', { chat_bubble_type: 'ITEM_LIST', attachment: { item: { list: [], summary: { image: { img_url: 'https://evil.example/x.jpg' } } } } }, -510, 'attachment.item.summary.image.img_url is not an image uploaded to the messenger'],
  ['an item list that is not a list', { chat_bubble_type: 'WIDE_ITEM_LIST', attachment: { item: { list: 'a' } } }, -510, 'attachment.item.list must be an array'],
  ['an item list entry that is not an object', { chat_bubble_type: 'WIDE_ITEM_LIST', attachment: { item: { list: [{ title: 'a' }, 'b'] } } }, -510, 'attachment.item.list[1] must be an object'],
  ['auto_answer values', { chat_bubble_type: 'TEXT', message: 'x', auto_answer: 'S9' }, -510, "auto_answer 'S9' is not one of S1, S2, S3, S4, S5"],
  ['a number for auto_answer', { chat_bubble_type: 'TEXT', message: 'x', auto_answer: 1 }, -510, 'auto_answer 1 is not one of S1, S2, S3, S4, S5 (a string is expected, not a number)'],
  ['auto_answer only with TEXT', { chat_bubble_type: 'IMAGE', attachment: image, auto_answer: 'S1' }, -510, 'auto_answer is only allowed with chat_bubble_type TEXT'],
];

describe('rich envelope rules', () => {
  const rows = broken.map(([name, envelope, code, fragment, chatbot]) => ({ name, envelope, code, fragment, chatbot }));
  it.each(rows)('$name', ({ envelope, code, fragment, chatbot }) => {
    const r = validateRichEnvelope(envelope, ctx(chatbot ?? false));
    expect(r.ok).toBe(false);
    const violation = r.ok ? undefined : r.violation;
    expect(violation?.code).toBe(code);
    expect(violation?.detail).toContain(fragment);
  });

  const valid: [string, Record<string, unknown>, boolean][] = [
    ['TEXT of 1000 chars with 5 buttons and 10 quick replies', text({ buttons: many(5, wl), quick_replies: many(10, bk) }), false],
    ['TEXT message exactly 1000', { chat_bubble_type: 'TEXT', message: 'a'.repeat(1000), auto_answer: 'S2' }, false],
    ['WIDE of 76 emoji', { chat_bubble_type: 'WIDE', message: '\u{1F600}'.repeat(76), attachment: image }, false],
    ['a quick reply name of 14 emoji', qrs({ type: 'BK', name: '\u{1F600}'.repeat(14) }), false],
    ['WIDE of 76 chars with 2 buttons', { chat_bubble_type: 'WIDE', message: 'a'.repeat(76), attachment: { ...image, buttons: many(2, wl) } }, false],
    ['IMAGE without message', { chat_bubble_type: 'IMAGE', attachment: image }, false],
    ['TEXT with coupon and 4 buttons', text({ buttons: many(4, bk), coupon: {} }), false],
    ['AL with two of three', btn({ type: 'AL', name: 'a', scheme_ios: 'app://x', url_mobile: 'https://m.test' }), false],
    ['a quick reply with url_target out', qrs({ type: 'WL', name: 'a', url_mobile: 'https://x.test', url_target: 'out' }), false],
    ['a quick reply with url_target null (as if left out)', qrs({ type: 'BK', name: 'a', url_target: null }), false],
    ['BT on a chatbot-builder channel', qrs({ type: 'BT', name: 'bot', chat_event: 'menu' }), true],
    ['BF with biz_form_key, MD and AC buttons', text({ buttons: [{ type: 'BF', name: 'f', biz_form_key: 'k' }, { type: 'MD', name: 'm' }, { type: 'AC', name: 'c' }] }), false],
    ['carousel of 6 cards (array form)', { chat_bubble_type: 'CAROUSEL_FEED', attachment: { carousel: many(6, card) } }, false],
    ['ITEM_LIST with item', { chat_bubble_type: 'ITEM_LIST', attachment: { item: { list: [] } } }, false],
    ['WIDE_ITEM_LIST with uploaded item images', { chat_bubble_type: 'WIDE_ITEM_LIST', attachment: { item: { list: [{ title: 'a', img_url: RICH }, { title: 'b', img_url: RICH }] } } }, false],
    ['PERSONAL', { chat_bubble_type: 'PERSONAL' }, false],
    ['PERSONAL with an empty attachment', { chat_bubble_type: 'PERSONAL', attachment: {} }, false],
    ['IMAGE with a whitespace caption', { chat_bubble_type: 'IMAGE', message: '  ', attachment: image }, false],
    ['WIDE with only an image', { chat_bubble_type: 'WIDE', attachment: image }, false],
    ['WIDE_ITEM_LIST with only an item', { chat_bubble_type: 'WIDE_ITEM_LIST', attachment: { item: { list: [] } } }, false],
    ['CAROUSEL_FEED with only a top-level carousel', { chat_bubble_type: 'CAROUSEL_FEED', carousel: { list: many(2, card) } }, false],
    ['TEXT with only buttons', { chat_bubble_type: 'TEXT', attachment: { buttons: [bk()] } }, false],
    ['TEXT with only quick replies', { chat_bubble_type: 'TEXT', attachment: { quick_replies: [bk()] } }, false],
    ['TEXT with only a coupon', { chat_bubble_type: 'TEXT', attachment: { coupon: { title: 'c' } } }, false],
    ['TEXT with a message and an empty attachment', { chat_bubble_type: 'TEXT', message: 'hi', attachment: {} }, false],
  ];

  it.each(valid)('accepts %s', (_name, envelope, chatbot) => {
    expect(validateRichEnvelope(envelope, ctx(chatbot))).toMatchObject({ ok: true });
  });

  it('reports the bubble text, image and quick replies', () => {
    const r = validateRichEnvelope({ chat_bubble_type: 'IMAGE', message: 'cap', attachment: { ...image, quick_replies: [bk()] } }, ctx());
    expect(r).toEqual({ ok: true, bubble: { type: 'IMAGE', text: 'cap', imageUrl: RICH, quickReplies: [bk()], buttons: [], items: [], cards: [] } });
  });
});
