import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { imageDir, writeJpeg } from '../media/test-support/images';
import { ServiceHarness } from '../test-support/service-harness';

/** A messenger that refuses every image upload with the code and message it is given. */
async function startRefusingMessenger(): Promise<{ url: string; refuseWith: (code: number, message: string) => void; close(): Promise<void> }> {
  let refusal = { code: -505, message: 'InvalidImageException: the image is not a jpg, png or gif' };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(req.url === '/v1/upload/image' ? refusal : { code: 0 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    refuseWith: (code, message) => (refusal = { code, message }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('POST /api/agent/upload/image refused by the messenger', () => {
  let messenger: Awaited<ReturnType<typeof startRefusingMessenger>>;
  let h: ServiceHarness;
  let images: Awaited<ReturnType<typeof imageDir>>;
  let photo: string;
  const upload = () => h.multipart('/api/agent/upload/image', { brand: 'acme-kakao' }, [['file', photo]]);

  beforeAll(async () => {
    messenger = await startRefusingMessenger();
    h = await ServiceHarness.start({ env: { UPSTREAM_URL: messenger.url, UPSTREAM_PARTNER_KEY: 'k' } });
    images = await imageDir();
    photo = await writeJpeg(images.file('card.jpg'), 800, 600);
  });
  afterAll(async () => {
    await h.stop();
    await messenger.close();
    await images.cleanup();
  });

  it('answers 400 UNSUPPORTED_IMAGE when the messenger finds the image bad (-505)', async () => {
    messenger.refuseWith(-505, 'InvalidImageException: the image is not a jpg, png or gif');
    const reply = await upload();
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'UNSUPPORTED_IMAGE', message: 'InvalidImageException: the image is not a jpg, png or gif' }]);
  });

  it.each([
    [-509, 'InvalidJsonException: unreadable multipart body'],
    [-501, 'InvalidSenderException: unknown sender_key'],
  ])('says what the messenger refused a good image for (%s), not that the image is unsupported', async (code, message) => {
    messenger.refuseWith(code, message);
    const reply = await upload();
    expect([reply.status, reply.body]).toEqual([400, { ok: false, code: 'BAD_REQUEST', message: `the messenger refused the image (${code}): ${message}` }]);
  });
});
