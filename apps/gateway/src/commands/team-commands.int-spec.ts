import { BrandwireClient } from '@brandwire/client';
import { LiveService, TEST_TOKENS } from '@brandwire/client/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CommandServer, startCommandServer } from './command-server';
import { Memos } from './memos';
import { TeamCommands } from './team-commands';

const SECRET = 'webhook-commands-secret-01';

describe("the team chat's commands, from a webhook team chat, against the built service", () => {
  let live: LiveService;
  let dir: string;
  let server: CommandServer;
  let writer: BrandwireClient;
  const lines: string[] = [];

  beforeAll(async () => {
    live = await LiveService.start();
    dir = mkdtempSync(join(tmpdir(), 'gateway-commands-'));
    writer = new BrandwireClient({ endpoint: live.url, token: TEST_TOKENS.writer });
    server = await startCommandServer({ type: 'webhook', port: 0, secret: SECRET }, new TeamCommands(() => writer, new Memos(join(dir, 'memos.json')), (line) => lines.push(line)), () => undefined);
  });
  afterAll(async () => {
    await server.close();
    await live.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const command = async (body: { text: string; thread?: string }): Promise<{ status: number; body: unknown }> => {
    const response = await fetch(server.url, { method: 'POST', headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' }, body: JSON.stringify({ user: 'jun', ...body }) });
    return { status: response.status, body: await response.json() };
  };
  const agentWrites = async (userKey: string, bubbles: number): Promise<void> => {
    for (let i = 1; i <= bubbles; i++) expect((await writer.send({ brandKey: 'acme-kakao', userKey, text: `update ${i}` })).ok).toBe(true);
  };

  describe('/cs-who', () => {
    it("shows the customer's last message and the count since the consultation started when agents have written many bubbles since", async () => {
      await live.customerWrites('hana', 'where is my parcel?');
      await agentWrites('hana', 35);
      const who = await command({ text: '/cs-who hana' });
      expect(who.status).toBe(200);
      expect(who.body).toEqual({
        ok: true,
        text: expect.stringMatching(/^hana \(acme-kakao\): consultation in progress \(36 messages since it started\); last wrote \d{4}-\d\d-\d\d \d\d:\d\d UTC: "where is my parcel\?"$/) as unknown,
      });
    });

    it("says so when the customer's last message is no longer among the room's latest 300", async () => {
      await live.customerWrites('ines', 'hello?');
      await agentWrites('ines', 300);
      const who = await command({ text: '/cs-who ines' });
      expect(who).toEqual({
        status: 200,
        body: {
          ok: true,
          text: "ines (acme-kakao): consultation in progress (it started before the room's latest 300 messages); their last message is no longer among the room's latest 300 messages",
        },
      });
    });
  });

  describe("in a customer's thread", () => {
    const thread = 'acme-kakao:alice';
    beforeAll(async () => {
      await live.customerWrites('alice', 'my order is late');
      await live.customerWrites('gina', 'I am her sister');
      await live.customerWrites('zoe', 'hi from Naver', 'acme-naver');
    });

    it("refuses a command naming another customer, saying whose thread it is and how to address the other, and ends no one's consultation", async () => {
      expect(await command({ text: '/cs-who gina', thread })).toEqual({
        status: 400,
        body: { ok: false, code: 'BAD_REQUEST', message: "this thread is alice's (acme-kakao): a command typed here is for alice; for gina, type it outside the thread: /cs-who gina" },
      });
      expect(await command({ text: '/cs-close gina', thread })).toEqual({
        status: 400,
        body: { ok: false, code: 'BAD_REQUEST', message: "this thread is alice's (acme-kakao): a command typed here is for alice; for gina, type it outside the thread: /cs-close gina [greeting]" },
      });
      expect(await command({ text: '/cs-close acme-naver:zoe Bye now', thread })).toEqual({
        status: 400,
        body: { ok: false, code: 'BAD_REQUEST', message: "this thread is alice's (acme-kakao): a command typed here is for alice; for acme-naver:zoe, type it outside the thread: /cs-close acme-naver:zoe [greeting]" },
      });
      expect(await command({ text: '/cs-memo gina asked for a refund', thread })).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
      // /cs-who takes nothing but a customer: any other word names one
      expect(await command({ text: '/cs-who nobody', thread })).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
      // an explicit <channel>:<customer> is never a greeting or a memo's first word, whether the customer has written or not
      expect(await command({ text: '/cs-memo acme-kakao:nobody asked twice', thread })).toMatchObject({ status: 400, body: { code: 'BAD_REQUEST' } });
      // alice's consultation goes on: no greeting was sent to her and nothing ended it
      const alice = (await writer.messages({ brand: 'acme-kakao', userKey: 'alice' })).messages;
      expect(alice.map((item) => item.kind)).toEqual(['message', 'reference']);
      expect(lines.some((line) => line.includes('for acme-kakao:alice'))).toBe(false);
    });

    it("takes the thread's own customer named first, and a memo or a greeting that merely starts with a word", async () => {
      expect(await command({ text: '/cs-who alice', thread })).toMatchObject({ status: 200, body: { ok: true, text: expect.stringMatching(/^alice \(acme-kakao\): consultation in progress/) as unknown } });
      expect(await command({ text: '/cs-memo call back after 5pm', thread })).toEqual({
        status: 200,
        body: { ok: true, text: 'memo kept for alice (acme-kakao); /cs-who acme-kakao:alice shows the memos' },
      });
      const who = await command({ text: '/cs-who', thread });
      expect(who).toMatchObject({ status: 200, body: { text: expect.stringMatching(/\nMemos:\n- .* jun: call back after 5pm$/) as unknown } });
      // the thread's own customer named first is the customer, not the start of the greeting
      expect(await command({ text: '/cs-close acme-kakao:alice Thanks, goodbye', thread })).toEqual({ status: 200, body: { ok: true, text: 'ended the consultation with alice (acme-kakao), after the greeting' } });
      const chat = await live.customerChat('alice');
      expect(chat.filter((bubble) => bubble.from !== 'customer').map((bubble) => bubble.text)).toEqual(['Thanks, goodbye', 'The consultation has ended.']);
    });
  });
});
