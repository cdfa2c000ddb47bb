/** A part of a multipart body written byte for byte: its Content-Disposition parameters as sent, and its content. */
export interface RawPart {
  /** what follows `form-data; `, e.g. `name="file"; filename*=UTF-8''ok%01.jpg` */
  disposition: string;
  contentType?: string;
  content: Buffer | string;
}

/**
 * A multipart/form-data body as a client might send it, unlike FormData, which escapes or encodes what it is
 * given: file names with any bytes, text fields with bytes that are not UTF-8.
 */
export function rawMultipart(parts: readonly RawPart[]): { body: Buffer; contentType: string } {
  const boundary = `----brandwire-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const headers = [`--${boundary}`, `Content-Disposition: form-data; ${part.disposition}`, ...(part.contentType ? [`Content-Type: ${part.contentType}`] : [])];
    chunks.push(Buffer.from(`${headers.join('\r\n')}\r\n\r\n`, 'latin1'), Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A text field of a raw multipart body. */
export const textPart = (name: string, value: Buffer | string): RawPart => ({ disposition: `name="${name}"`, content: value });
