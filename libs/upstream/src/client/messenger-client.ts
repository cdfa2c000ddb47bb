import { openAsBlob } from 'node:fs';
import { AxiosInstance } from 'axios';
import {
  AutoAnswer,
  CustomerRef,
  MessengerPort,
  SerialRef,
  UploadData,
  UploadFileResult,
  UploadImageResult,
  UpstreamButton,
  UpstreamResult,
} from '../port';
import { UpstreamUnavailableError, toUnavailable } from './errors';
import { fetchLongText } from './long-text';
import { HttpClientOptions, createKeepAliveAxios, parseJsonObject } from './keep-alive';

type Body = Record<string, unknown>;

/**
 * MessengerPort over HTTP: the partner API of the messenger (or the sandbox messenger).
 *
 * Calls made during one turn of the event loop go out together, at the end of the turn (setImmediate): under
 * load the requests that arrived together reach the messenger together and their answers come back together,
 * so the process handles many per wake-up instead of waking for each. On the benchmark's send this halved the
 * service's CPU time per send; a lone call waits for nothing but the rest of the current turn.
 */
export class HttpMessengerClient implements MessengerPort {
  private readonly http: AxiosInstance;
  private readonly destroyAgents: () => void;
  /** resolved at the end of the current turn; undefined when no call is waiting */
  private turnEnd: Promise<void> | undefined;

  private readonly baseUrl: string;

  constructor(o: HttpClientOptions) {
    this.baseUrl = o.baseUrl;
    const c = createKeepAliveAxios(o);
    this.http = c.http;
    this.destroyAgents = c.destroy;
  }

  /** Closes the keep-alive sockets. */
  close(): void {
    this.destroyAgents();
  }

  writeText(r: SerialRef & { message: string }): Promise<UpstreamResult> {
    return this.post('/v1/write', { ...ids(r), message_type: 'TX', message: r.message });
  }

  writeLinks(
    r: SerialRef & { message: string; links?: UpstreamButton[]; quickReplies?: UpstreamButton[]; autoAnswer?: AutoAnswer },
  ): Promise<UpstreamResult> {
    const body: Body = { ...ids(r), message_type: 'LI', message: r.message };
    if (r.links) body['links'] = r.links;
    if (r.quickReplies) body['supplement'] = { quick_reply: r.quickReplies };
    if (r.autoAnswer) body['auto_answer'] = r.autoAnswer;
    return this.post('/v1/write', body);
  }

  writeImage(r: SerialRef & { imageUrl: string }): Promise<UpstreamResult> {
    return this.post('/v1/write', { ...ids(r), message_type: 'IM', image_url: r.imageUrl });
  }

  writeFile(
    r: SerialRef & { fileUrl: string; fileName: string; fileSize: number; messageType: 'FI' | 'AU' },
  ): Promise<UpstreamResult> {
    return this.post('/v1/write', {
      ...ids(r),
      message_type: r.messageType,
      file_url: r.fileUrl,
      file_name: r.fileName,
      file_size: r.fileSize,
    });
  }

  sendRich(r: SerialRef & { envelope: Record<string, unknown> }): Promise<UpstreamResult> {
    return this.post('/v1/rich', { ...r.envelope, ...ids(r) });
  }

  end(r: CustomerRef): Promise<UpstreamResult> {
    return this.post('/v1/end', customer(r));
  }

  endWithBot(r: CustomerRef & { botEvent?: string }): Promise<UpstreamResult> {
    const body: Body = customer(r);
    if (r.botEvent !== undefined) body['bot_event'] = r.botEvent;
    return this.post('/v1/end_with_bot', body);
  }

  block(r: CustomerRef): Promise<UpstreamResult> {
    return this.post('/v1/block', customer(r));
  }

  unblock(r: CustomerRef): Promise<UpstreamResult> {
    return this.post('/v1/unblock', customer(r));
  }

  activateChat(senderKey: string): Promise<UpstreamResult> {
    return this.post('/v1/chat/activate', { sender_key: senderKey });
  }

  deactivateChat(senderKey: string): Promise<UpstreamResult> {
    return this.post('/v1/chat/deactivate', { sender_key: senderKey });
  }

  deleteMessage(r: SerialRef): Promise<UpstreamResult> {
    return this.post('/v1/delete', ids(r));
  }

  requestConsent(r: SerialRef): Promise<UpstreamResult> {
    return this.post('/v1/personal_info/request', ids(r));
  }

  async uploadImage(r: {
    senderKey: string;
    data: UploadData;
    fileName: string;
    imageType: 'rich' | 'plain';
  }): Promise<UploadImageResult> {
    const form = new FormData();
    form.append('sender_key', r.senderKey);
    form.append('image_type', r.imageType);
    form.append('image', await toBlob(r.data), multipartFileName(r.fileName));
    const body = await this.send('/v1/upload/image', form);
    const result: UploadImageResult = toResult(body);
    if (typeof body['image'] === 'string') result.url = body['image'];
    return result;
  }

  async uploadFile(r: {
    senderKey: string;
    data: UploadData;
    fileName: string;
    fileType: 'file' | 'audio' | 'video';
  }): Promise<UploadFileResult> {
    const form = new FormData();
    form.append('sender_key', r.senderKey);
    form.append('file_type', r.fileType);
    form.append('file', await toBlob(r.data), multipartFileName(r.fileName));
    const body = await this.send('/v1/upload/file', form);
    const result: UploadFileResult = toResult(body);
    if (typeof body['file'] === 'string') result.url = body['file'];
    if (typeof body['name'] === 'string') result.name = body['name'];
    if (typeof body['size'] === 'number') result.size = body['size'];
    return result;
  }

  fetchLongText(url: string): Promise<string> {
    return fetchLongText(this.baseUrl, url);
  }

  private async post(path: string, body: Body): Promise<UpstreamResult> {
    return toResult(await this.send(path, body));
  }

  /** Resolves once the current turn of the event loop is over, for every call made during it at once. */
  private endOfTurn(): Promise<void> {
    this.turnEnd ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.turnEnd = undefined;
        resolve();
      }),
    );
    return this.turnEnd;
  }

  private async send(path: string, data: Body | FormData): Promise<Body> {
    const target = `POST ${path}`;
    await this.endOfTurn();
    let res;
    try {
      // request() rather than post(), which merges a second configuration into this one first
      res = await this.http.request<unknown>({ method: 'post', url: path, data });
    } catch (err) {
      throw toUnavailable(err, target);
    }
    if (res.status < 200 || res.status > 299) {
      throw new UpstreamUnavailableError('http_status', target, `HTTP ${res.status}`, res.status);
    }
    const body = parseJsonObject(res.data);
    if (!body || (typeof body['code'] !== 'number' && typeof body['code'] !== 'string')) {
      throw new UpstreamUnavailableError('bad_response', target, 'the answer is not a JSON object with a code');
    }
    return body;
  }
}

function ids(r: SerialRef): Body {
  return { user_key: r.userKey, sender_key: r.senderKey, serial_number: r.serialNumber };
}

function customer(r: CustomerRef): Body {
  return { user_key: r.userKey, sender_key: r.senderKey };
}

function toResult(body: Body): UpstreamResult {
  const result: UpstreamResult = {
    code: String(body['code']),
    message: typeof body['message'] === 'string' ? body['message'] : null,
  };
  const session = body['session_id'];
  if (typeof session === 'string' || typeof session === 'number') result.sessionId = String(session);
  return result;
}

/**
 * The file name as the multipart body carries it, with control characters and backslashes replaced by `_`. The
 * form encoder escapes only CR, LF and `"` in it: any other control character makes the part's header unreadable
 * upstream, and a backslash, read as an escape in the quoted name, can swallow its closing quote.
 */
function multipartFileName(name: string): string {
  return name.replace(/[\p{Cc}\\]/gu, '_');
}

/** Bytes as a Blob, or a path as a file-backed Blob that is streamed from disk when sent. */
async function toBlob(data: UploadData): Promise<Blob> {
  return typeof data === 'string' ? openAsBlob(data) : new Blob([data]);
}
