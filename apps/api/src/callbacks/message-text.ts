import { type AttachmentType, formatAttachmentText } from '@brandwire/domain';
import { fail } from '../common/errors/envelope';
import type { CallbackBody } from './callback-body';

const MEDIA_TYPES: readonly string[] = ['photo', 'video', 'audio', 'file'] satisfies AttachmentType[];

/** Appended to a long text kept as the messenger cut it, when its whole text could not be fetched. */
export const TRUNCATED_MARK = '\n[truncated: the whole message could not be fetched]';

/** The url of the .txt with the whole text of a long text message (`attachment.url`), if the callback names one. */
export function longTextUrl(body: CallbackBody): string | undefined {
  if (body['type'] !== 'text') return undefined;
  const attachment = body['attachment'];
  if (typeof attachment !== 'object' || attachment === null) return undefined;
  const url = (attachment as { url?: unknown }).url;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

/** The journal text of a customer message: text as sent, media as `[type] <url> caption` lines. */
export function messageText(body: CallbackBody): string {
  const type = body['type'];
  const contents = body['contents'];
  if (!Array.isArray(contents)) throw fail('BAD_REQUEST', 'contents must be an array');
  if (contents.length === 0) throw fail('BAD_REQUEST', 'contents must hold the message: a text, or one item per media');
  if (type === 'text') {
    if (!contents.every((c): c is string => typeof c === 'string')) throw fail('BAD_REQUEST', 'contents of a text message must be strings');
    return contents.join('\n');
  }
  if (typeof type !== 'string' || !MEDIA_TYPES.includes(type)) throw fail('BAD_REQUEST', `type must be one of text, ${MEDIA_TYPES.join(', ')}`);
  return formatAttachmentText(
    contents.map((c: unknown, i) => {
      const item = c as { url?: unknown; comment?: unknown } | null;
      if (typeof item?.url !== 'string') throw fail('BAD_REQUEST', `contents[${i}].url must be a string`);
      const caption = typeof item.comment === 'string' && item.comment !== '' ? item.comment : undefined;
      return { type: type as AttachmentType, url: item.url, ...(caption ? { caption } : {}) };
    }),
  );
}
