import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { postOnce } from '@brandwire/upstream';
import { blockedAddressReason, checkStoredWebhookUrl, type WebhookUrlPolicy } from './webhook-url-policy';
import { webhookHeaders } from './webhook-signature';

export const DELIVERY_TIMEOUT_MS = 10_000;

export interface DeliveryAttempt {
  ok: boolean;
  /** why it failed: the HTTP status or the transport error */
  error?: string;
  /** why the URL policy refuses the URL itself (its scheme, its address): nothing was sent, nor will be while it is the URL */
  urlRefused?: string;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A DNS lookup that refuses addresses webhooks may not reach, checked at every connection (DNS rebinding). Plain
 * http is for loopback receivers only (while the sandbox is the upstream): its lookup refuses every other address.
 */
function guardedLookup(policy: WebhookUrlPolicy, loopbackOnly: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as LookupAddress[];
      const notLoopback = (address: string) => (blockedAddressReason(address, { allowLoopback: false })?.includes('loopback') ? undefined : `${address} is not a loopback address (http is for loopback only)`);
      const blocked = list.map((a) => blockedAddressReason(a.address, policy) ?? (loopbackOnly ? notLoopback(a.address) : undefined)).find(Boolean);
      if (blocked) return callback(Object.assign(new Error(`webhook host ${hostname} refused: ${blocked}`), { code: 'EBLOCKED' }), '');
      if (options.all) return callback(null, list);
      const first = list[0];
      return first ? callback(null, first.address, first.family) : callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
    });
  };
}

/**
 * POSTs signed signals to a channel's webhook: one attempt, a timeout, no redirects, keep-alive connections. The
 * URL policy of `PUT /api/agent/settings/webhook` is applied again to every attempt, as the policy is now: a URL
 * stored under another one (loopback while the sandbox was the upstream) gets nothing.
 */
export class WebhookSender {
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(
    private readonly policy: WebhookUrlPolicy,
    private readonly timeoutMs = DELIVERY_TIMEOUT_MS,
  ) {
    const lookup = (loopbackOnly: boolean) => guardedLookup(policy, loopbackOnly) as unknown as http.AgentOptions['lookup'];
    this.agents = {
      http: new http.Agent({ keepAlive: true, maxSockets: 128, lookup: lookup(true) }),
      https: new https.Agent({ keepAlive: true, maxSockets: 128, lookup: lookup(false) }),
    };
  }

  /** Why the URL policy refuses a stored URL as it is now (nothing would be sent to it), or undefined if it does not. */
  refusal(url: string): string | undefined {
    // an IP literal needs no lookup, and the scheme is no address: both are checked here
    const verdict = checkStoredWebhookUrl(url, this.policy);
    return verdict.ok ? undefined : verdict.reason;
  }

  async send(url: string, secret: string, id: string, body: string, nowMs: number): Promise<DeliveryAttempt> {
    const refused = this.refusal(url);
    if (refused !== undefined) return { ok: false, error: `EBLOCKED webhook URL refused: ${refused}`, urlRefused: refused };
    try {
      const headers = webhookHeaders(secret, id, Math.floor(nowMs / 1000), body);
      const { status } = await postOnce(url, { headers, body, timeoutMs: this.timeoutMs, agents: this.agents });
      return status >= 200 && status < 300 ? { ok: true } : { ok: false, error: `HTTP ${status}` };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : 'delivery failed' };
    }
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
