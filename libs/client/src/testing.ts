import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

/** The built service (`npm run build`), started as `npm start` starts it. Same relative place from src/ and dist/. */
export const API_MAIN = resolve(__dirname, '../../../apps/api/dist/main.js');

export const TEST_TOKENS = {
  admin: 'cli-test-admin-token-00000001',
  writer: 'cli-test-writer-token-0000001',
  reader: 'cli-test-reader-token-0000001',
  otherBrand: 'cli-test-other-token-00000001',
} as const;

/** Brand `acme` has a Kakao-type (with a chatbot builder) and a Naver-type channel; `globex` one Kakao-type channel. */
export function testSeed(tokens: { admin: string; writer: string; reader: string; otherBrand: string }) {
  return {
    brands: [
      {
        id: 'acme',
        name: 'Acme',
        channels: [
          { key: 'acme-kakao', name: 'Acme Kakao', type: 'kakao', chatbotBuilder: true, plan: { consultations: 1000 } },
          { key: 'acme-naver', name: 'Acme Naver', type: 'naver', plan: { consultations: 1000 } },
        ],
      },
      { id: 'globex', name: 'Globex', channels: [{ key: 'globex-kakao', name: 'Globex Kakao', type: 'kakao', plan: { consultations: 10 } }] },
    ],
    keys: [
      { token: tokens.admin, name: 'ops', scope: 'Admin', brands: ['acme'] },
      { token: tokens.writer, name: 'agent', scope: 'BrandWrite', brands: ['acme'] },
      { token: tokens.reader, name: 'viewer', scope: 'BrandRead', brands: ['acme'] },
      { token: tokens.otherBrand, name: 'globex-agent', scope: 'BrandWrite', brands: ['globex'] },
    ],
  };
}

export const TEST_SEED = testSeed(TEST_TOKENS);

export interface ChatBubble {
  serial: string;
  from: string;
  kind: string;
  text?: string;
  deleted: boolean;
}

/** A real service process on an ephemeral port: temp data dir, the seed above, the in-process sandbox messenger. */
export class LiveService {
  private constructor(
    readonly url: string,
    readonly child: ChildProcess,
    private readonly dir: string,
    readonly output: () => string,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<LiveService> {
    const dir = mkdtempSync(join(tmpdir(), 'brandwire-live-'));
    writeFileSync(join(dir, 'seed.json'), JSON.stringify(TEST_SEED));
    const child = spawn(process.execPath, [API_MAIN], {
      env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', BRANDWIRE_DATA_DIR: join(dir, 'data'), BRANDWIRE_SEED: join(dir, 'seed.json'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const url = await new Promise<string>((done, reject) => {
      const timer = setTimeout(() => reject(new Error(`the service did not start in time:\n${out}`)), 30_000);
      child.once('exit', (code) => reject(new Error(`the service exited with ${String(code)}:\n${out}`)));
      const poll = setInterval(() => {
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match?.[1] && out.includes('API documentation')) {
          clearInterval(poll);
          clearTimeout(timer);
          done(match[1]);
        }
      }, 20);
    });
    child.removeAllListeners('exit');
    return new LiveService(url, child, dir, () => out);
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null) {
      await new Promise((done) => {
        this.child.once('exit', done);
        this.child.kill('SIGTERM');
      });
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  async call<T = Record<string, unknown>>(method: string, path: string, body?: unknown, token: string = TEST_TOKENS.writer): Promise<{ status: number; body: T }> {
    const response = await fetch(`${this.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  /** The simulated customer writes (and so starts a consultation when none is in progress). */
  async customerWrites(userKey: string, text: string, brandKey = 'acme-kakao'): Promise<void> {
    const reply = await this.call('POST', `/sandbox/customers/${encodeURIComponent(userKey)}/messages`, { brandKey, text });
    if (reply.status !== 200) throw new Error(`the customer could not write: ${reply.status} ${JSON.stringify(reply.body)}`);
  }

  /** What the simulated customer's chat shows, oldest first. */
  async customerChat(userKey: string, brand = 'acme-kakao'): Promise<ChatBubble[]> {
    const reply = await this.call<{ bubbles: ChatBubble[] }>('GET', `/sandbox/customers/${encodeURIComponent(userKey)}/chat?brand=${encodeURIComponent(brand)}`);
    if (reply.status !== 200) throw new Error(`chat unavailable: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body.bubbles;
  }
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Writes a real (decodable) solid-colour RGB PNG of the given size: test images without fixtures. */
export function writePng(path: string, width: number, height: number, rgb: readonly [number, number, number] = [40, 120, 200]): string {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(pixels)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
  writeFileSync(path, png);
  return path;
}

/** What a misconfigured endpoint (a JSON echo, another service's catch-all) answers to everything: `{"ok":true}`. */
export async function startJsonEcho(): Promise<{ url: string; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const server = createServer((request, response) => {
    received.push(`${request.method ?? ''} ${request.url ?? ''}`);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
