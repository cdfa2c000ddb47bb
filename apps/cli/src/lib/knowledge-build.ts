import { usageError } from './cli-error';

/** A bare host name, optionally with a port: what an attachment URL's host must equal exactly. */
export function checkAttachmentHost(value: string): string {
  const host = value.trim().toLowerCase();
  let parsed: URL | undefined;
  try {
    parsed = new URL(`https://${host}/`);
  } catch {
    parsed = undefined;
  }
  if (host === '' || parsed?.host !== host) {
    throw usageError(`--attachment-host must be a host name such as talk-cdn.example.com (no scheme or path), got "${value}"`);
  }
  return host;
}
