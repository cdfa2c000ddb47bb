import { UpstreamUnavailableError } from './errors';

/** How long fetching the whole text of a long customer message may take (the callback waits for it). */
export const LONG_TEXT_TIMEOUT_MS = 3_000;
/** The largest whole text taken (bytes of UTF-8); a larger file is refused. */
export const LONG_TEXT_MAX_BYTES = 1024 * 1024;

/**
 * GETs the `.txt` of a long customer message: only from the messenger's own origin (the partner API's, so a
 * callback cannot make the service fetch from anywhere else), without following redirects, within the timeout,
 * and reading at most `maxBytes`. Throws UpstreamUnavailableError for anything else.
 */
export async function fetchLongText(baseUrl: string, url: string, limits: { timeoutMs: number; maxBytes: number } = { timeoutMs: LONG_TEXT_TIMEOUT_MS, maxBytes: LONG_TEXT_MAX_BYTES }): Promise<string> {
  const target = `GET ${url.slice(0, 200)}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UpstreamUnavailableError('bad_response', target, 'not a URL');
  }
  if (parsed.origin !== new URL(baseUrl).origin || parsed.username !== '' || parsed.password !== '') {
    throw new UpstreamUnavailableError('bad_response', target, "not on the messenger's own host");
  }
  const signal = AbortSignal.timeout(limits.timeoutMs);
  try {
    const res = await fetch(parsed, { redirect: 'manual', signal });
    if (res.status < 200 || res.status > 299) {
      await res.body?.cancel();
      throw new UpstreamUnavailableError('http_status', target, `HTTP ${res.status}`, res.status);
    }
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > limits.maxBytes) {
      await res.body?.cancel();
      throw new UpstreamUnavailableError('bad_response', target, `larger than ${limits.maxBytes} bytes`);
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    if (res.body) {
      for await (const chunk of res.body) {
        size += chunk.byteLength;
        if (size > limits.maxBytes) {
          throw new UpstreamUnavailableError('bad_response', target, `larger than ${limits.maxBytes} bytes`);
        }
        chunks.push(chunk);
      }
    }
    return new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  } catch (err) {
    if (err instanceof UpstreamUnavailableError) throw err;
    if (signal.aborted) throw new UpstreamUnavailableError('timeout', target, `no whole answer in ${limits.timeoutMs} ms`);
    throw new UpstreamUnavailableError('connection', target, err instanceof Error ? err.message : String(err));
  }
}
