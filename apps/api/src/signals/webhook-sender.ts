import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
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

/**
 * POSTs signed signals to a channel's webhook: one attempt, a timeout, no redirects, keep-alive connections.
 * Plain node:http rather than axios: this is the busiest outbound path, and axios costs about 250 µs of CPU more
 * per request (its config merging and header objects), which caps delivery throughput.
 */
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

  send(url: string, secret: string, id: string, body: string, nowMs: number): Promise<DeliveryAttempt> {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return Promise.resolve({ ok: false, error: `invalid webhook URL ${url}` });
    }
    const secure = target.protocol === 'https:';
    const headers = { ...webhookHeaders(secret, id, Math.floor(nowMs / 1000), body), 'content-length': String(Buffer.byteLength(body)) };
    return new Promise<DeliveryAttempt>((resolve) => {
      let settled = false;
      const finish = (attempt: DeliveryAttempt): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(attempt);
      };
      const options: http.RequestOptions = {
        method: 'POST',
        protocol: target.protocol,
        hostname: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port || (secure ? 443 : 80),
        path: `${target.pathname}${target.search}`,
        headers,
        agent: secure ? this.agents.https : this.agents.http,
      };
      if (target.username || target.password) options.auth = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
      const request = (secure ? https : http).request(options, (response) => {
        const status = response.statusCode ?? 0;
        // The body is not read for anything, but it must be consumed for the connection to be reused.
        response.resume();
        response.on('end', () => finish(status >= 200 && status < 300 ? { ok: true } : { ok: false, error: `HTTP ${status}` }));
        response.on('error', (error) => finish(failure(error)));
      });
      // One deadline for the whole attempt (connect, send, answer), like a client timeout, not a socket idle timeout.
      const timer = setTimeout(() => request.destroy(Object.assign(new Error(`no answer within ${this.timeoutMs} ms`), { code: 'ETIMEDOUT' })), this.timeoutMs);
      request.on('error', (error) => finish(failure(error)));
      request.end(body);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

function failure(error: Error): DeliveryAttempt {
  const code = (error as NodeJS.ErrnoException).code;
  return { ok: false, error: code ? `${code}: ${error.message}`.trim() : error.message || 'delivery failed' };
}
