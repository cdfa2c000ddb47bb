import { BrandwireClient } from '@brandwire/client';
import { LiveService, TEST_TOKENS } from '@brandwire/client/testing';
import { RoomTexts } from './room-texts';

describe("the room texts a relay reads a signal's message from", () => {
  let live: LiveService;
  let client: BrandwireClient;

  beforeAll(async () => {
    live = await LiveService.start();
    client = new BrandwireClient({ endpoint: live.url, token: TEST_TOKENS.reader });
    // more than the room API's largest page (300)
    for (let i = 0; i < 305; i += 1) await live.customerWrites('far', `m${i}`);
    await live.customerWrites('near', 'hello');
  });
  afterAll(async () => {
    await live.stop();
  });

  /** seqs by text of a room's messages, read back page by page */
  const seqOf = async (userKey: string, text: string): Promise<number> => {
    let before: number | undefined;
    for (;;) {
      const page = (await client.messages({ brand: 'acme-kakao', userKey, max: 300, ...(before === undefined ? {} : { before }) })).messages;
      const found = page.find((m) => m.kind === 'message' && m.text === text);
      if (found) return found.seq;
      if (page.length === 0) throw new Error(`no message ${text} of ${userKey}`);
      before = page[page.length - 1]?.seq;
    }
  };

  it("reads a message further back than the room API's largest page (a gateway catching up), and a recent one", async () => {
    const texts = new RoomTexts('acme-kakao');
    expect((await texts.find(client, 'far', await seqOf('far', 'm0')))?.text).toBe('m0');
    expect((await texts.find(client, 'far', await seqOf('far', 'm304')))?.text).toBe('m304');
  });

  it("finds nothing for a seq of another customer's room", async () => {
    const texts = new RoomTexts('acme-kakao');
    expect(await texts.find(client, 'far', await seqOf('near', 'hello'))).toBeUndefined();
  });
});
