const TIMEOUT_MS = 10_000;

/**
 * One request to a team chat's API, given up after `timeoutMs` (10 s unless told), a redirect not followed; throws
 * naming what failed (the status, the network error's code), never the URL, which holds the secret that lets the
 * gateway answer.
 */
export async function callTeamChat(method: 'PATCH' | 'DELETE' | 'POST', url: string, body: object | undefined, timeoutMs = TIMEOUT_MS): Promise<void> {
  let status: number;
  try {
    const response = await fetch(url, {
      method,
      ...(body && { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.arrayBuffer().catch(() => undefined);
    status = response.status;
  } catch (error) {
    // read by shape: fetch's errors may come from another realm than this module's Error
    const { name, cause } = error as { name?: unknown; cause?: { code?: unknown } };
    if (name === 'TimeoutError') throw new Error(`no answer within ${timeoutMs / 1000} s`);
    throw new Error(typeof cause?.code === 'string' ? cause.code : 'no answer');
  }
  if (status < 200 || status >= 300) throw new Error(`${method} answered HTTP ${status}`);
}
