import { TINY_PNG } from '../testing/images';
import { SandboxHarness } from '../testing/harness';
import { KAKAO, startHarness } from '../test-support/fixtures';

describe('HttpMessengerClient upload file names', () => {
  let h: SandboxHarness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  const fileNamed = (fileName: string) => h.messenger.uploadFile({ senderKey: KAKAO, data: Buffer.from('hello'), fileName, fileType: 'file' });
  const uploaded = (name: string) => ({ code: '0000', message: null, url: expect.any(String), name, size: 5 });

  it.each([
    ['a control character', 'a\u0001b.txt', 'a_b.txt'],
    ['NUL, escape and DEL', 'x\u0000y\u001b[1m\u007f.txt', 'x_y_[1m_.txt'],
    ['CR and LF', 'two\r\nlines.txt', 'two__lines.txt'],
    ['a tab and a C1 control', 'tab\there\u0085.txt', 'tab_here_.txt'],
    ['a trailing backslash', 'folder\\', 'folder_'],
  ])('a name with %s still reaches the messenger, those characters replaced', async (_what, fileName, shown) => {
    await expect(fileNamed(fileName)).resolves.toEqual(uploaded(shown));
    await expect(h.messenger.uploadImage({ senderKey: KAKAO, data: TINY_PNG, fileName, imageType: 'rich' })).resolves.toMatchObject({ code: '0000' });
  });

  it('sends quotes, non-Latin letters and spaces as they are', async () => {
    await expect(fileNamed('“quoted” "name" 견적서 ü.pdf')).resolves.toEqual(uploaded('“quoted” "name" 견적서 ü.pdf'));
  });
});
