import type { ImageStyle } from './dto/send-attachments.dto';

export const DEFAULT_CAPTION = 'Photo';

export interface IncomingFile {
  path: string;
  name: string;
  size: number;
  contentType: string | undefined;
  isImage: boolean;
}

export type PlannedBubble =
  | { kind: 'text'; text: string }
  | { kind: 'image'; file: IncomingFile; caption: string | null; groupIndex: number }
  | { kind: 'file'; file: IncomingFile };

/**
 * The bubbles of an attachment send, in sending order (the spec's six rules and two image styles):
 * rich images carry the text as the first caption and a default caption after; plain photos follow a text
 * bubble and carry none; files come after the images; text that no image carries becomes its own bubble,
 * the first one (the tool's rule: with --file and --text the text goes into the first bubble).
 */
export function planBubbles(files: readonly IncomingFile[], text: string | undefined, style: ImageStyle): PlannedBubble[] {
  const images = files.filter((f) => f.isImage);
  const others = files.filter((f) => !f.isImage);
  const hasText = text !== undefined && text.trim() !== '';
  const bubbles: PlannedBubble[] = [];
  if ((style === 'plain' || images.length === 0) && hasText) bubbles.push({ kind: 'text', text });
  images.forEach((file, i) => {
    const caption = style === 'plain' ? null : i === 0 && hasText ? text : DEFAULT_CAPTION;
    bubbles.push({ kind: 'image', file, caption, groupIndex: i });
  });
  for (const file of others) bubbles.push({ kind: 'file', file });
  return bubbles;
}
