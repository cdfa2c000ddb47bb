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
  const parsed = ipaddr.parse(address);
  const embedded = embeddedIPv4(parsed);
  const range = (embedded ?? parsed).range();
  if (range === 'unicast') return undefined;
  if (range === 'loopback' && policy.allowLoopback) return undefined;
  return `${address} is a ${range} address${embedded && !address.includes('.') ? ` (it embeds ${embedded.toString()})` : ''}`;
}

/**
 * The IPv4 address an IPv6 address stands for on the hosts that reach it: IPv4-mapped (`::ffff:a.b.c.d`) and
 * IPv4-compatible (`::a.b.c.d`, deprecated, but still routed to the IPv4 address by many stacks; ipaddr.js calls
 * it unicast). `::` and `::1` are themselves. The other embeddings (6to4 `2002::/16`, Teredo `2001::/32`, NAT64
 * `64:ff9b::/96` and `64:ff9b:1::/48`) reach their IPv4 address through a relay or translator; ipaddr.js names
 * their ranges, so they are refused whole: no webhook receiver needs one.
 */
function embeddedIPv4(parsed: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (parsed.kind() !== 'ipv6') return undefined;
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  const [a, b, c, d, e, f, high = 0, low = 0] = v6.parts;
  const compatible = a === 0 && b === 0 && c === 0 && d === 0 && e === 0 && f === 0 && (high !== 0 || low > 1);
  return compatible ? new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]) : undefined;
}

function isIpLiteral(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) ? bare : undefined;
}

/** What a URL's text tells without DNS: refused, or allowed so far with its host's addresses when the text gives them. */
type UrlShape = { ok: false; reason: string } | { ok: true; url: URL; addresses: string[] | undefined };

function checkShape(raw: string, policy: WebhookUrlPolicy): UrlShape {
  if (raw.length > MAX_URL_LENGTH) return { ok: false, reason: `the URL is longer than ${MAX_URL_LENGTH} characters` };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.username || url.password) return { ok: false, reason: 'the URL must not carry credentials' };
  // the scheme is told first: whether the host resolves says nothing about a URL refused anyway
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowLoopback)) return { ok: false, reason: mustBeHttps(policy) };
  const host = url.hostname;
  const literal = isIpLiteral(host);
  if (literal) return { ok: true, url, addresses: [literal] };
  if (host === 'localhost' || host.endsWith('.localhost')) return { ok: true, url, addresses: ['127.0.0.1'] };
  return { ok: true, url, addresses: undefined };
}

function checkAddresses(url: URL, addresses: readonly string[], policy: WebhookUrlPolicy): UrlVerdict {
  const loopbackOnly = addresses.length > 0 && addresses.every((a) => blockedAddressReason(a, { allowLoopback: false })?.includes('loopback'));
  if (url.protocol !== 'https:' && !loopbackOnly) return { ok: false, reason: mustBeHttps(policy) };
  for (const address of addresses) {
    const reason = blockedAddressReason(address, policy);
    if (reason) return { ok: false, reason: `${url.hostname} is not allowed: ${reason}` };
  }
  return { ok: true, url };
}

function mustBeHttps(policy: WebhookUrlPolicy): string {
  return policy.allowLoopback ? 'the URL must be https (http only for loopback addresses)' : 'the URL must be https';
}

/**
 * Checks a webhook URL against server-side request forgery: https only (http only for loopback while the
 * sandbox is the upstream), no credentials, and every address its host resolves to must be public.
 */
export async function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy, resolve: (host: string) => Promise<string[]> = resolveAll): Promise<UrlVerdict> {
  const shape = checkShape(raw, policy);
  if (!shape.ok) return shape;
  let addresses = shape.addresses;
  if (!addresses) {
    try {
      addresses = await resolve(shape.url.hostname);
    } catch {
      // an http URL is refused for its scheme unless its host is a loopback one, which this one cannot be shown to be
      return { ok: false, reason: shape.url.protocol === 'https:' ? `the host ${shape.url.hostname} does not resolve` : mustBeHttps(policy) };
    }
  }
  return checkAddresses(shape.url, addresses, policy);
}

/**
 * The same policy for a stored URL at delivery time: it was allowed when set, but the policy may differ now (a
 * loopback URL set while the sandbox was the upstream, after a restart with a real messenger). Told without DNS:
 * the addresses a host name resolves to are checked as each connection looks them up (see WebhookSender).
 */
export function checkStoredWebhookUrl(raw: string, policy: WebhookUrlPolicy): UrlVerdict {
  const shape = checkShape(raw, policy);
  if (!shape.ok) return shape;
  return shape.addresses ? checkAddresses(shape.url, shape.addresses, policy) : { ok: true, url: shape.url };
}

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);
}
