import { mkdtempSync, openAsBlob, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { testSeed } from '@brandwire/client/testing';
import { type TestDatabase, type TestDialect, testDatabase } from '@brandwire/store/testing';
import { startService, type RunningService } from '../app/start-service';
import { loadConfig } from '../config/config';
import { type RawPart, rawMultipart } from './raw-multipart';

export const TOKENS = {
  admin: 'test-admin-token-0000000001',
  writer: 'test-writer-token-000000001',
  reader: 'test-reader-token-000000001',
  otherBrand: 'test-other-token-0000000001',
} as const;

/** The seed of the client's tests (two brands; `acme` with a Kakao-type and a Naver-type channel), with these keys. */
export const TEST_SEED = testSeed(TOKENS);

export interface ApiReply<T = Record<string, unknown>> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** A real service on an ephemeral port with a fresh database and the in-process sandbox messenger. */
export class ServiceHarness {
  private constructor(
    private running: RunningService,
    private readonly database: TestDatabase,
    private readonly seedDir: string,
  ) {}

  static async start(options: { dialect?: TestDialect; env?: Record<string, string> } = {}): Promise<ServiceHarness> {
    const database = await testDatabase(options.dialect ?? 'sqlite');
    const seedDir = mkdtempSync(join(tmpdir(), 'brandwire-seed-'));
    const seedFile = join(seedDir, 'seed.json');
    writeFileSync(seedFile, JSON.stringify(TEST_SEED));
    const config = loadConfig({
      PORT: '0',
      BRANDWIRE_DATA_DIR: database.dataDir,
      BRANDWIRE_SEED: seedFile,
      LOG_LEVEL: 'silent',
      ...(database.databaseUrl ? { DATABASE_URL: database.databaseUrl } : {}),
      ...options.env,
    });
    const service = await startService(config);
    return new ServiceHarness(service, database, seedDir);
  }

  get service(): RunningService {
    return this.running;
  }

  get url(): string {
    return this.running.url;
  }

  /** Stops the service and starts it again on the same data (a new port; the sandbox messenger takes back its state). */
  async restart(): Promise<void> {
    await this.running.close();
    this.running = await startService(this.running.runtime.config);
  }

  get dataDir(): string {
    return this.database.dataDir;
  }

  async stop(): Promise<void> {
    await this.running.close();
    await this.database.drop();
    rmSync(this.seedDir, { recursive: true, force: true });
  }

  async request<T = Record<string, unknown>>(method: string, path: string, options: RequestOptions = {}): Promise<ApiReply<T>> {
    const token = options.token === undefined ? TOKENS.writer : options.token;
    const headers: Record<string, string> = { ...options.headers };
    if (token !== null) headers['authorization'] = `Bearer ${token}`;
    let body: string | undefined = options.rawBody;
    if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    const response = await fetch(`${this.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    return readReply<T>(response);
  }

  post<T = Record<string, unknown>>(path: string, body: unknown, token?: string | null): Promise<ApiReply<T>> {
    return this.request<T>('POST', path, { body, ...(token !== undefined ? { token } : {}) });
  }

  get<T = Record<string, unknown>>(path: string, token?: string | null): Promise<ApiReply<T>> {
    return this.request<T>('GET', path, token !== undefined ? { token } : {});
  }

  /** A multipart POST: text fields, and files read from disk as `[part name, path, file name?, content type?]`. */
  async multipart<T = Record<string, unknown>>(
    path: string,
    fields: Record<string, string>,
    files: ReadonlyArray<readonly [string, string, string?, string?]>,
    token: string | null = TOKENS.writer,
    headers: Record<string, string> = {},
  ): Promise<ApiReply<T>> {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    for (const [part, filePath, fileName, type] of files) {
      const blob = await openAsBlob(filePath, type ? { type } : {});
      form.append(part, blob, fileName ?? basename(filePath));
    }
    const response = await fetch(`${this.url}${path}`, { method: 'POST', body: form, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
    return readReply<T>(response);
  }

  /** A multipart POST of parts written byte for byte (see rawMultipart). */
  async multipartRaw<T = Record<string, unknown>>(path: string, parts: readonly RawPart[], token: string | null = TOKENS.writer, headers: Record<string, string> = {}): Promise<ApiReply<T>> {
    const { body, contentType } = rawMultipart(parts);
    const response = await fetch(`${this.url}${path}`, {
      method: 'POST',
      body,
      headers: { 'content-type': contentType, ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    });
    return readReply<T>(response);
  }

  /** The simulated customer writes on a channel; returns the seq of the last journal item it caused. */
  async customerWrites(userKey: string, input: { text?: string; attachments?: unknown[]; reference?: unknown }, brandKey = 'acme-kakao'): Promise<number> {
    const reply = await this.post<{ ok: boolean; seq: number }>(`/sandbox/customers/${encodeURIComponent(userKey)}/messages`, { brandKey, ...input });
    if (reply.status !== 200 || !reply.body.ok) throw new Error(`customer could not write: ${reply.status} ${reply.text}`);
    return reply.body.seq;
  }

  async customerChat(userKey: string, brand = 'acme-kakao'): Promise<Array<{ serial: string; from: string; kind: string; text?: string; deleted: boolean }>> {
    const reply = await this.get<{ ok: boolean; bubbles: Array<{ serial: string; from: string; kind: string; text?: string; deleted: boolean }> }>(
      `/sandbox/customers/${encodeURIComponent(userKey)}/chat?brand=${brand}`,
    );
    if (reply.status !== 200) throw new Error(`chat unavailable: ${reply.status} ${reply.text}`);
    return reply.body.bubbles;
  }
}

/** An answer's status, headers and text, and the text as JSON when it is JSON. */
async function readReply<T>(response: Response): Promise<ApiReply<T>> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body: body as T, text, headers: response.headers };
}
