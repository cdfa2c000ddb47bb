import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { postOnce } from '@brandwire/upstream';
import { blockedAddressReason, type WebhookUrlPolicy } from './webhook-url-policy';
import { webhookHeaders } from './webhook-signature';

export const DELIVERY_TIMEOUT_MS = 10_000;

export interface DeliveryAttempt {
  ok: boolean;
  /** why it failed: the HTTP status or the transport error */
  error?: string;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A DNS lookup that refuses addresses webhooks may not reach, checked at every connection (DNS rebinding). */
function guardedLookup(policy: WebhookUrlPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const list = addresses as LookupAddress[];
      const blocked = list.map((a) => blockedAddressReason(a.address, policy)).find(Boolean);
      if (blocked) return callback(Object.assign(new Error(`webhook host ${hostname} refused: ${blocked}`), { code: 'EBLOCKED' }), '');
      if (options.all) return callback(null, list);
      const first = list[0];
      return first ? callback(null, first.address, first.family) : callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), '');
    });
  };
}

/** POSTs signed signals to a channel's webhook: one attempt, a timeout, no redirects, keep-alive connections. */
export class WebhookSender {
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(
    policy: WebhookUrlPolicy,
    private readonly timeoutMs = DELIVERY_TIMEOUT_MS,
  ) {
    const lookup = guardedLookup(policy) as unknown as http.AgentOptions['lookup'];
    this.agents = {
      http: new http.Agent({ keepAlive: true, maxSockets: 128, lookup }),
      https: new https.Agent({ keepAlive: true, maxSockets: 128, lookup }),
    };
  }

  async send(url: string, secret: string, id: string, body: string, nowMs: number): Promise<DeliveryAttempt> {
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
