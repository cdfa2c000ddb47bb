import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

/** What an inbound webhook URL may point at. Loopback is allowed only while the sandbox messenger is the upstream. */
export interface WebhookUrlPolicy {
  allowLoopback: boolean;
}

const MAX_URL_LENGTH = 2048;

/** Why this address may not receive webhooks (private, link-local, metadata, ...), or undefined when it may. */
export function blockedAddressReason(address: string, policy: WebhookUrlPolicy): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  return `${address} is a ${range} address`;
}

function isIpLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : undefined;
}

/**
 * Checks a webhook URL against server-side request forgery: https only (http only for loopback while the
 * sandbox is the upstream), no credentials, and every address its host resolves to must be public.
 */
export async function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy, resolve: (host: string) => Promise<string[]> = resolveAll): Promise<UrlVerdict> {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `the URL is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.username || url.password) return { ok: false, reason: 'the URL must not carry credentials' };
  const mustBeHttps = policy.allowLoopback ? 'the URL must be https (http only for loopback addresses)' : 'the URL must be https';
  // the scheme is told first: whether the host resolves says nothing about a URL refused anyway
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowLoopback)) return { ok: false, reason: mustBeHttps };
  const host = url.hostname;
  const literal = isIpLiteral(host);
  let addresses: string[];
  if (literal) {
    addresses = [literal];
  } else if (host === 'localhost' || host.endsWith('.localhost')) {
    addresses = ['127.0.0.1'];
  } else {
    try {
      addresses = await resolve(host);
    } catch {
      // an http URL is refused for its scheme unless its host is a loopback one, which this one cannot be shown to be
      return { ok: false, reason: url.protocol === 'https:' ? `the host ${host} does not resolve` : mustBeHttps };
    }
  }
  const loopbackOnly = addresses.length > 0 && addresses.every((a) => blockedAddressReason(a, { allowLoopback: false })?.includes('loopback'));
  if (url.protocol !== 'https:' && !loopbackOnly) return { ok: false, reason: mustBeHttps };
  for (const address of addresses) {
    const reason = blockedAddressReason(address, policy);
    if (reason) return { ok: false, reason: `${host} is not allowed: ${reason}` };
  }
  return { ok: true, url };
}

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}
