import { Code } from '../result-codes';
import { Obj, RuleContext, RuleViolation, invalid, isObj, stringFields } from './button-rules';

/** Only files hosted by the messenger can be sent: an image url must be one of its rich image uploads. */
export function checkRichUpload(url: string, path: string, ctx: RuleContext): void {
  const kind = ctx.uploadKindOf(url);
  if (kind === undefined) throw invalid(`${path} is not an image uploaded to the messenger`);
  if (kind !== 'rich') throw new RuleViolation(Code.InvalidImage, `${path} was uploaded as ${kind}; rich bubbles need image_type rich`);
}

/**
 * A list bubble's `attachment.item`: `list`, when given, is an array of entries (objects); every `img_url` in the
 * item, at any depth (an entry's image, or one in another part of the item), is a rich image upload. Returns what the
 * chat shows of the entries.
 */
export function checkItem(item: Obj, path: string, ctx: RuleContext): Obj[] {
  const list = item['list'];
  if (list !== undefined && list !== null && !Array.isArray(list)) throw invalid(`${path}.list must be an array`);
  const entries = (Array.isArray(list) ? (list as unknown[]) : []).map((entry, i) => {
    if (!isObj(entry)) throw invalid(`${path}.list[${i}] must be an object`);
    return entry;
  });
  for (const image of imageUrlsIn(item, path)) {
    if (typeof image.value !== 'string') throw invalid(`${image.path} must be a string`);
    checkRichUpload(image.value, image.path, ctx);
  }
  return entries.map((entry) => stringFields(entry, ['title', 'description', 'img_url', 'url_mobile', 'url_pc']));
}

interface Node {
  value: unknown;
  path: string;
  /** the value of an `img_url` field */
  isImageUrl: boolean;
}

/** Every `img_url` value inside `value` that is not null, with its path, in the order they are written. */
function* imageUrlsIn(value: unknown, path: string): Generator<Node> {
  // a stack of its own rather than recursion: a deeply nested body cannot exhaust the call stack
  const stack: Node[] = [{ value, path, isImageUrl: false }];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.isImageUrl) {
      yield node;
      continue;
    }
    const { value: v, path: p } = node;
    const children: Node[] = Array.isArray(v)
      ? v.map((x, i) => ({ value: x, path: `${p}[${i}]`, isImageUrl: false }))
      : isObj(v)
        ? Object.entries(v).map(([k, x]) => ({ value: x, path: `${p}.${k}`, isImageUrl: k === 'img_url' }))
        : [];
    for (let i = children.length - 1; i >= 0; i -= 1) {
      const child = children[i];
      if (child && !(child.isImageUrl && (child.value === undefined || child.value === null))) stack.push(child);
    }
  }
}
