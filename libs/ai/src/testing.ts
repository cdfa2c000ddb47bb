import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the fake model received. */
export interface FakeModelRequest {
  method: string;
  /** path and query */
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

type Reply = string | ((request: FakeModelRequest) => string | Promise<string>);

/**
 * A local stand-in for a model provider over real HTTP: OpenAI's API (chat completions, models) under `/v1` of
 * `openAiUrl`, Anthropic's (messages, models paged two at a time) under `/v1` of `anthropicUrl`.
 */
export interface FakeModel {
  /** `gateway.ai.url` for openai or ollama */
  readonly openAiUrl: string;
  /** `gateway.ai.url` for anthropic */
  readonly anthropicUrl: string;
  readonly requests: FakeModelRequest[];
  /** the ids the model lists answer */
  models: string[];
  /** what the chat calls answer from now on (a function sees the request, and may take its time) */
  answerWith(reply: Reply): void;
  /** every call answers this HTTP status (and body) from now on, until `answerWith` */
  failWith(status: number, body?: string | object): void;
  /** the chat calls received so far, waiting up to `timeoutMs` for `count` of them; fails when they do not come */
  chats(count: number, timeoutMs?: number): Promise<FakeModelRequest[]>;
  close(): Promise<void>;
}

export async function startFakeModel(): Promise<FakeModel> {
  const requests: FakeModelRequest[] = [];
  let reply: Reply = 'OK';
  let failure: { status: number; body: string | object } | undefined;
  const state = { models: ['model-b', 'model-a', 'model-c'] };
  const waiters = new Set<() => void>();

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = raw === '' ? undefined : JSON.parse(raw);
      } catch {
        body = raw;
      }
      const request: FakeModelRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(request);
      for (const wake of waiters) wake();
      if (failure) return send(res, failure.status, failure.body);
      answer(request, res);
    });
  });

  const answer = (request: FakeModelRequest, res: ServerResponse): void => {
    const anthropic = request.path.startsWith('/anthropic/');
    const path = request.path.replace(/^\/(anthropic|openai)/, '').split('?')[0];
    const answered = (body: (text: string) => object): void => {
      void Promise.resolve(typeof reply === 'function' ? reply(request) : reply).then((text) => send(res, 200, body(text)));
    };
    if (request.method === 'POST' && !anthropic && path === '/v1/chat/completions') {
      return answered((text) => ({ id: 'chatcmpl-1', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }] }));
    }
    if (request.method === 'POST' && anthropic && path === '/v1/messages') {
      return answered((text) => ({ id: 'msg_1', type: 'message', role: 'assistant', content: [{ type: 'text', text }], stop_reason: 'end_turn' }));
    }
    if (request.method === 'GET' && path === '/v1/models') {
      if (!anthropic) return send(res, 200, { object: 'list', data: state.models.map((id, i) => ({ id, object: 'model', created: 1_700_000_000 + i, owned_by: 'fake' })) });
      const after = new URL(request.path, 'http://x').searchParams.get('after_id');
      const start = after === null ? 0 : state.models.indexOf(after) + 1;
      const page = state.models.slice(start, start + 2);
      return send(res, 200, {
        data: page.map((id) => ({ type: 'model', id, display_name: id.toUpperCase(), created_at: '2025-05-14T00:00:00Z' })),
        has_more: start + 2 < state.models.length,
        first_id: page[0] ?? null,
        last_id: page.at(-1) ?? null,
      });
    }
    send(res, 404, { error: { message: `no route ${request.method} ${request.path}` } });
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const chatCalls = (): FakeModelRequest[] => requests.filter((r) => r.method === 'POST');

  return {
    openAiUrl: `${origin}/openai/v1`,
    anthropicUrl: `${origin}/anthropic`,
    requests,
    get models() {
      return state.models;
    },
    set models(ids: string[]) {
      state.models = ids;
    },
    answerWith(next) {
      reply = next;
      failure = undefined;
    },
    failWith(status, body = { error: { message: `failing with ${status}` } }) {
      failure = { status, body };
    },
    async chats(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (chatCalls().length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`the fake model expected ${count} chat calls within ${timeoutMs} ms, got ${chatCalls().length}`);
        await new Promise<void>((resolve) => {
          const wake = (): void => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, left);
          waiters.add(wake);
        });
      }
      return chatCalls().slice(0, count);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(res: ServerResponse, status: number, body: string | object): void {
  if (res.destroyed) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/html' : 'application/json' });
  res.end(text);
}
