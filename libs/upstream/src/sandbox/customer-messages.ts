import { randomBytes } from 'node:crypto';
import { firstCharacters, formatAttachmentLine, isLongerThan } from '@brandwire/domain';
import { CustomerAttachmentType } from './control-types';
import { CustomerMessage } from './sessions';

const EXT: Readonly<Record<CustomerAttachmentType, string>> = { photo: 'jpg', video: 'mp4', audio: 'm4a', file: 'pdf' };

/**
 * A customer text longer than this reaches the partner cut to this length in `contents`, with `attachment.url`
 * naming a .txt file with the whole text on the messenger's own host (the sandbox's `/texts/<name>.txt`).
 */
export const LONG_TEXT_CHARS = 1_000;

/**
 * What one customer action sends: the text first, then one media message per attachment type (in the order the
 * types first appear; all photos bundled in one message). Media urls are on the attachment host.
 */
export function customerMessagesOf(
  text: string | undefined,
  attachments: readonly { type: CustomerAttachmentType; caption?: string }[],
  attachmentHost: string,
  extra?: string,
  keepLongText?: (text: string) => string,
): CustomerMessage[] {
  const out: CustomerMessage[] = [];
  if (text) {
    const long = keepLongText !== undefined && isLongerThan(text, LONG_TEXT_CHARS);
    const m: CustomerMessage = { type: 'text', contents: [long ? firstCharacters(text, LONG_TEXT_CHARS) : text], bubble: { kind: 'text', text, imageUrl: null } };
    if (long) m.attachment = { url: keepLongText(text) };
    if (extra !== undefined) m.extra = extra;
    out.push(m);
  }
  const groups = new Map<CustomerAttachmentType, { url: string; comment: string }[]>();
  for (const a of attachments) {
    const url = `https://${attachmentHost}/${randomBytes(10).toString('hex')}.${EXT[a.type]}`;
    const group = groups.get(a.type) ?? [];
    group.push({ url, comment: a.caption ?? '' });
    groups.set(a.type, group);
  }
  for (const [type, contents] of groups) {
    const first = contents[0];
    const lines = contents.map((c) => formatAttachmentLine({ type, url: c.url, caption: c.comment }));
    out.push({
      type,
      contents,
      bubble: {
        kind: type === 'photo' ? 'image' : 'file',
        text: lines.join('\n'),
        imageUrl: type === 'photo' && first ? first.url : null,
      },
    });
  }
  return out;
}
