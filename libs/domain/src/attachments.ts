/** Customer attachments carried inside message text: one `[type] <url>[ caption]` line per attachment. */
export type AttachmentType = 'photo' | 'video' | 'audio' | 'file';

export interface Attachment {
  type: AttachmentType;
  url: string;
  caption?: string;
}

const LINE_PATTERN = /^\[(photo|video|audio|file)\] (\S+)(?: (.*))?$/;

/** "[photo] https://host/x.jpg caption". Line breaks inside a caption become spaces, so the line stays one line. */
export function formatAttachmentLine(a: Attachment): string {
  const caption = a.caption === undefined ? '' : a.caption.replace(/\r\n|\r|\n/g, ' ');
  return caption === '' ? `[${a.type}] ${a.url}` : `[${a.type}] ${a.url} ${caption}`;
}

/** A bundle: one line per attachment, joined with "\n". */
export function formatAttachmentText(list: readonly Attachment[]): string {
  return list.map(formatAttachmentLine).join('\n');
}

/**
 * The attachments in a message text. Only lines in the attachment format whose URL is https on exactly
 * `attachmentHost` (no subdomain, no other port, no user info) count; any other line or link is ignored,
 * because customers can type links themselves.
 */
export function parseAttachments(text: string, attachmentHost: string): Attachment[] {
  const host = attachmentHost.trim().toLowerCase();
  if (host === '') return [];
  const found: Attachment[] = [];
  for (const line of text.split('\n')) {
    const match = LINE_PATTERN.exec(line.endsWith('\r') ? line.slice(0, -1) : line);
    if (!match) continue;
    const [, type, url, caption] = match;
    if (!isAttachmentUrl(url, host)) continue;
    const attachment: Attachment = { type: type as AttachmentType, url };
    if (caption !== undefined && caption !== '') attachment.caption = caption;
    found.push(attachment);
  }
  return found;
}

/** True when `url` is https on exactly `attachmentHost` (host compared case-insensitively). */
export function isAttachmentUrl(url: string, attachmentHost: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (
    parsed.protocol === 'https:' &&
    parsed.username === '' &&
    parsed.password === '' &&
    parsed.host === attachmentHost.trim().toLowerCase()
  );
}
