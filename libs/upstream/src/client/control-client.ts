import { ConsultationSchedule } from '@brandwire/domain';
import { AxiosInstance } from 'axios';
import {
  CallbacksResult,
  ChannelInfo,
  ChannelSettings,
  ChatResult,
  ClockResult,
  CustomerMessageInput,
  SandboxInfo,
  SandboxResult,
} from '../sandbox/control-types';
import { UpstreamUnavailableError, toUnavailable } from './errors';
import { HttpClientOptions, createKeepAliveAxios, parseJsonObject } from './keep-alive';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Client of the sandbox messenger's control API (`/_sandbox`): plays the customer, the partner setup and the
 * clock. Refusals come back as `{ ok: false, code, message }`; transport failures throw UpstreamUnavailableError.
 */
export class SandboxControlClient {
  private readonly http: AxiosInstance;
  private readonly destroyAgents: () => void;

  constructor(o: HttpClientOptions) {
    const c = createKeepAliveAxios(o);
    this.http = c.http;
    this.destroyAgents = c.destroy;
  }

  close(): void {
    this.destroyAgents();
  }

  setPartner(r: { callbackUrl: string }): Promise<SandboxResult<{ ok: true }>> {
    return this.call('PUT', '/_sandbox/partner', r);
  }

  setChannel(senderKey: string, settings: ChannelSettings): Promise<SandboxResult<{ ok: true }>> {
    return this.call('PUT', `/_sandbox/channels/${enc(senderKey)}`, settings);
  }

  /** The channel as the messenger keeps it: chat state, consultation hours and system messages. */
  channel(senderKey: string): Promise<SandboxResult<ChannelInfo>> {
    return this.call('GET', `/_sandbox/channels/${enc(senderKey)}`);
  }

  /** Sets the channel's consultation hours (null = always open); the messenger reads them on its own clock. */
  setSchedule(senderKey: string, schedule: ConsultationSchedule | null): Promise<SandboxResult<{ ok: true; schedule: ConsultationSchedule | null }>> {
    return this.call('PUT', `/_sandbox/channels/${enc(senderKey)}/schedule`, { schedule });
  }

  info(): Promise<SandboxInfo> {
    return this.call('GET', '/_sandbox/info');
  }

  /** The customer writes (text first, then one message per attachment type). */
  customerMessage(userKey: string, input: CustomerMessageInput): Promise<SandboxResult<CallbacksResult>> {
    return this.call('POST', `/_sandbox/customers/${enc(userKey)}/messages`, input);
  }

  /** The customer leaves the chat room: the consultation ends with reason customer_left. */
  customerLeave(userKey: string, r: { senderKey: string }): Promise<SandboxResult<CallbacksResult>> {
    return this.call('POST', `/_sandbox/customers/${enc(userKey)}/end`, r);
  }

  /** What the customer sees, oldest first. */
  chat(userKey: string, senderKey: string): Promise<SandboxResult<ChatResult>> {
    return this.call('GET', `/_sandbox/customers/${enc(userKey)}/chat?senderKey=${enc(senderKey)}`);
  }

  /** The customer agrees to the pending consent bubble of the current session. */
  consent(
    userKey: string,
    r: { senderKey: string; nickname: string; phoneNumber: string },
  ): Promise<SandboxResult<CallbacksResult>> {
    return this.call('POST', `/_sandbox/customers/${enc(userKey)}/consent`, r);
  }

  /** The customer taps quick reply `quickReply` (index) of the agent bubble `serial`. */
  tap(
    userKey: string,
    r: { senderKey: string; serial: string; quickReply: number },
  ): Promise<SandboxResult<CallbacksResult>> {
    return this.call('POST', `/_sandbox/customers/${enc(userKey)}/tap`, r);
  }

  /** Deletes an agent bubble as another agent tool would (fires `/deleted`). */
  deleteByOtherTool(userKey: string, r: { senderKey: string; serial: string }): Promise<SandboxResult<CallbacksResult>> {
    return this.call('POST', `/_sandbox/customers/${enc(userKey)}/delete-by-other-tool`, r);
  }

  advanceClock(seconds: number): Promise<SandboxResult<ClockResult>> {
    return this.call('POST', '/_sandbox/clock', { advanceSeconds: seconds });
  }

  /** The next `times` calls of the partner path `call` fail with the messenger's `code` (-400, -500, -512, -600, -601). */
  setFault(call: string, code: number, times: number): Promise<SandboxResult<{ ok: true }>> {
    return this.call('POST', '/_sandbox/faults', { call, code, times });
  }

  clearFaults(): Promise<SandboxResult<{ ok: true }>> {
    return this.call('DELETE', '/_sandbox/faults');
  }

  getClock(): Promise<{ now: number }> {
    return this.call('GET', '/_sandbox/clock');
  }

  private async call<T>(method: Method, path: string, data?: object): Promise<T> {
    const target = `${method} ${path.split('?')[0]}`;
    let res;
    try {
      res = await this.http.request<unknown>({ method, url: path, data });
    } catch (err) {
      throw toUnavailable(err, target);
    }
    const body = parseJsonObject(res.data);
    // refusals are JSON envelopes with ok: false whatever the status; anything else is not the sandbox talking
    const isEnvelope = body !== undefined && (typeof body['ok'] === 'boolean' || body['sandbox'] === true || 'now' in body);
    if (!isEnvelope) {
      if (res.status < 200 || res.status > 299) {
        throw new UpstreamUnavailableError('http_status', target, `HTTP ${res.status}`, res.status);
      }
      throw new UpstreamUnavailableError('bad_response', target, 'the answer is not a sandbox JSON envelope');
    }
    // 503 is a refusal the sandbox explains (it could not keep its state, nothing changed); other 5xx are failures
    if (res.status >= 500 && !(res.status === 503 && body['ok'] === false)) {
      throw new UpstreamUnavailableError('http_status', target, `HTTP ${res.status}`, res.status);
    }
    return body as T;
  }
}

function enc(s: string): string {
  return encodeURIComponent(s);
}
