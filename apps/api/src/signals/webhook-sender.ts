import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import axios, { type AxiosInstance } from 'axios';
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
  private readonly http: AxiosInstance;
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(policy: WebhookUrlPolicy, timeoutMs = DELIVERY_TIMEOUT_MS) {
    const lookup = guardedLookup(policy) as unknown as http.AgentOptions['lookup'];
    this.agents = {
      http: new http.Agent({ keepAlive: true, maxSockets: 128, lookup }),
      https: new https.Agent({ keepAlive: true, maxSockets: 128, lookup }),
    };
    this.http = axios.create({
      timeout: timeoutMs,
      maxRedirects: 0,
      httpAgent: this.agents.http,
      httpsAgent: this.agents.https,
      validateStatus: () => true,
      responseType: 'text',
      transformResponse: [(data: unknown) => data],
    });
  }

  async send(url: string, secret: string, id: string, body: string, nowMs: number): Promise<DeliveryAttempt> {
    try {
      const response = await this.http.post(url, body, { headers: webhookHeaders(secret, id, Math.floor(nowMs / 1000), body) });
      return response.status >= 200 && response.status < 300 ? { ok: true } : { ok: false, error: `HTTP ${response.status}` };
    } catch (error) {
      const e = error as { code?: string; message?: string };
      return { ok: false, error: e.code ? `${e.code}: ${e.message ?? ''}`.trim() : (e.message ?? 'delivery failed') };
    }
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}
