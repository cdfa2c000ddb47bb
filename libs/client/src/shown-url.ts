/**
 * A URL as a message or a listing shows it: scheme, host and port, never its userinfo, query or fragment, any of
 * which may carry a secret. `path: 'shown'` keeps the path (a service endpoint's, such as /brandwire); `'hidden'`
 * puts "/…" for any path or query (a team-chat webhook's path is often the secret itself). Undefined for no URL.
 */
export function shownUrl(url: string, path: 'shown' | 'hidden'): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const site = `${parsed.protocol}//${parsed.host}`;
  if (path === 'shown') return parsed.pathname === '/' ? site : `${site}${parsed.pathname}`;
  return parsed.pathname === '/' && parsed.search === '' ? site : `${site}/…`;
}

/** The service endpoint as messages name it: see shownUrl. */
export function shownEndpoint(endpoint: string): string {
  return shownUrl(endpoint, 'shown') ?? 'an endpoint that is not a URL';
}

/** Text that may quote a URL (such as a fetch error's message) without the userinfo of any URL in it. */
export function withoutUserinfo(text: string): string {
  // up to the authority's last @: a password may hold one itself
  return text.replace(/\b([a-z][\w+.-]*:\/\/)[^\s/?#]*@/gi, '$1');
}
