import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TEST_TOKENS, writePng } from '@brandwire/client/testing';
import { CliSandbox } from './test-support/cli';

describe('sending from the tool: what the customer receives', () => {
  let s: CliSandbox;
  const writer = { token: TEST_TOKENS.writer };

  beforeAll(async () => {
    s = await CliSandbox.start();
  });
  afterAll(async () => {
    await s.stop();
  });

  const agentTexts = async (userKey: string, brand = 'acme-kakao') =>
    (await s.service.customerChat(userKey, brand)).filter((b) => b.from !== 'customer').map((b) => ({ kind: b.kind, text: b.text, deleted: b.deleted }));

  it('sends text and prints {ok, brandKey, userKey, serial}; the customer sees it', async () => {
    await s.service.customerWrites('u-text', 'Hello?');
    const run = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-text', '--text', 'Your order left today.', '--json'], writer);
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ ok: true, brandKey: 'acme-kakao', userKey: 'u-text', serial: expect.stringMatching(/^bw-\d+-\w+$/) });
    expect(run.stderr).toBe('');
    expect(await agentTexts('u-text')).toEqual([{ kind: 'text', text: 'Your order left today.', deleted: false }]);
  });

  it('accepts the old names --brand and --user, and prints a line for people without --json', async () => {
    await s.service.customerWrites('u-alias', 'Hi', 'acme-naver');
    const run = await s.run(['send', '--brand', 'acme-naver', '--user', 'u-alias', '--text', 'via aliases'], writer);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Sent to u-alias on acme-naver: serial bw-\d+-\w+\n$/);
    expect(await agentTexts('u-alias', 'acme-naver')).toEqual([{ kind: 'text', text: 'via aliases', deleted: false }]);
  });

  it('uses the channel stored by setup when --channel is left out', async () => {
    const config = s.configDir('default-channel');
    await s.run(['setup', TEST_TOKENS.writer, '--channel', 'acme-kakao'], { config });
    await s.service.customerWrites('u-default', 'Hi');
    const run = await s.run(['send', '--to', 'u-default', '--text', 'default channel', '--json'], { config });
    expect(run.json()).toMatchObject({ ok: true, brandKey: 'acme-kakao', userKey: 'u-default' });
    const missing = await s.run(['send', '--to', 'u-default', '--text', 'x', '--json'], writer);
    expect(missing.code).toBe(2);
    expect(missing.json()).toEqual({
      ok: false,
      error: 'missing --channel: the brand key of the channel, e.g. --channel acme-kakao',
      code: 'USAGE',
      hint: '`brandwire whoami` lists the channels; `brandwire setup <key> --channel <key>` stores a default',
    });
  });

  it('names the flag of the customer, and its alias, when it is missing (exit 2)', async () => {
    const json = await s.run(['send', '--channel', 'acme-kakao', '--text', 'x', '--json'], writer);
    expect({ code: json.code, out: json.json() }).toEqual({ code: 2, out: { ok: false, code: 'USAGE', error: 'Missing required flag --to (alias: --user)', hint: 'see --help for the flags and arguments' } });
    const text = await s.run(['delete', '--channel', 'acme-kakao', '--serial', 's'], writer);
    expect({ code: text.code, stderr: text.stderr }).toEqual({ code: 2, stderr: 'Error: Missing required flag --to (alias: --user)\nHint: see --help for the flags and arguments\n' });
  });

  it('sends a rich envelope from --rich-json, and refuses one without chat_bubble_type (exit 2, BAD_RICH)', async () => {
    await s.service.customerWrites('u-rich', 'Colour?');
    const card = join(s.dir, 'card.json');
    writeFileSync(card, JSON.stringify({ chat_bubble_type: 'TEXT', message: 'Pick a colour', attachment: { quick_replies: [{ name: 'Red', type: 'BK' }] } }));
    const run = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-rich', '--rich-json', card, '--json'], writer);
    expect(run.json()).toMatchObject({ ok: true, serial: expect.any(String) });
    expect(await agentTexts('u-rich')).toEqual([expect.objectContaining({ text: 'Pick a colour', deleted: false })]);

    const bad = join(s.dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ message: 'no type' }));
    const refused = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-rich', '--rich-json', bad, '--json'], writer);
    expect(refused.code).toBe(2);
    expect(refused.json()).toEqual({ ok: false, error: expect.stringContaining('chat_bubble_type is required'), code: 'BAD_RICH' });
    const numbered = join(s.dir, 'numbered.json');
    writeFileSync(numbered, JSON.stringify({ chat_bubble_type: 5, message: 'a number for a type' }));
    const mistyped = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-rich', '--rich-json', numbered, '--json'], writer);
    expect({ code: mistyped.code, out: mistyped.json() }).toEqual({
      code: 2,
      out: { ok: false, code: 'BAD_RICH', error: `--rich-json ${numbered}: chat_bubble_type must be one of TEXT, IMAGE, WIDE, ITEM_LIST, WIDE_ITEM_LIST, CAROUSEL_FEED or PERSONAL (a string), not a number` },
    });
    const bogus = join(s.dir, 'bogus.json');
    writeFileSync(bogus, JSON.stringify({ chat_bubble_type: 'BOGUS', message: 'unknown type' }));
    const unknown = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-rich', '--rich-json', bogus, '--json'], writer);
    expect({ code: unknown.code, out: unknown.json() }).toEqual({
      code: 2,
      out: { ok: false, code: 'BAD_RICH', error: `--rich-json ${bogus}: chat_bubble_type "BOGUS" is not one of TEXT, IMAGE, WIDE, ITEM_LIST, WIDE_ITEM_LIST, CAROUSEL_FEED or PERSONAL` },
    });
    const broken = join(s.dir, 'broken.json');
    writeFileSync(broken, '{"chat_bubble_type": ');
    const notJson = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-rich', '--rich-json', broken, '--json'], writer);
    expect(notJson.code).toBe(2);
    expect(notJson.json()).toEqual({ ok: false, code: 'BAD_RICH', error: expect.stringContaining('not valid JSON') });
    const missing = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-rich', '--rich-json', join(s.dir, 'nowhere.json'), '--json'], writer);
    expect(missing.json()).toMatchObject({ ok: false, code: 'FILE', error: expect.stringContaining('no such file') });
  });

  it('delivers --file attachments directly with the text in the first bubble', async () => {
    await s.service.customerWrites('u-files', 'Send the receipt');
    const png = writePng(join(s.dir, 'receipt.png'), 640, 480);
    const pdf = join(s.dir, 'terms.pdf');
    writeFileSync(pdf, '%PDF-1.4 terms');
    const run = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-files', '--file', png, '--file', pdf, '--text', 'Here you are', '--json'], writer);
    expect(run.code).toBe(0);
    const result = run.json<{ serial: string; results: Array<{ kind: string; ok: boolean; serial: string }> }>();
    expect(result).toMatchObject({ ok: true, brandKey: 'acme-kakao', userKey: 'u-files', results: [{ kind: 'image', ok: true }, { kind: 'file', ok: true }] });
    expect(result.serial).toBe(result.results[0]?.serial);
    // a rich image is a card bubble in the customer's chat
    expect((await agentTexts('u-files')).map((b) => b.kind)).toEqual(['rich', 'file']);

    const plain = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-files', '--file', png, '--text', 'A photo', '--image-style', 'plain', '--json'], writer);
    expect(plain.json()).toMatchObject({ ok: true, results: [{ kind: 'text', ok: true }, { kind: 'image', ok: true }] });
    const fileOnly = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-files', '--file', pdf, '--text', 'The terms', '--json'], writer);
    expect(fileOnly.json()).toMatchObject({ ok: true, results: [{ kind: 'text', ok: true }, { kind: 'file', ok: true }] });
    expect((await agentTexts('u-files')).slice(-2).map((b) => [b.kind, b.text ?? null])).toEqual([['text', 'The terms'], ['file', 'terms.pdf']]);
    const missing = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-files', '--file', join(s.dir, 'nope.png'), '--json'], writer);
    expect(missing.code).toBe(2);
    expect(missing.json()).toEqual({ ok: false, error: `--file ${join(s.dir, 'nope.png')}: no such file`, code: 'FILE' });
  });

  it('refuses an empty --file of upload file, audio, video and image as FILE (exit 2), as a missing one, before anything is uploaded', async () => {
    const emptyPdf = join(s.dir, 'empty-upload.pdf');
    const emptyPng = join(s.dir, 'empty-upload.png');
    writeFileSync(emptyPdf, '');
    writeFileSync(emptyPng, '');
    for (const [type, path] of [['file', emptyPdf], ['audio', emptyPdf], ['video', emptyPdf], ['image', emptyPng]] as const) {
      const json = await s.run(['upload', type, '--channel', 'acme-kakao', '--file', path, '--json'], writer);
      expect({ type, code: json.code, out: json.json(), stderr: json.stderr }).toEqual({ type, code: 2, out: { ok: false, error: `--file ${path}: the file is empty`, code: 'FILE' }, stderr: '' });
      const text = await s.run(['upload', type, '--channel', 'acme-kakao', '--file', path], writer);
      expect({ type, code: text.code, stdout: text.stdout, stderr: text.stderr }).toEqual({ type, code: 2, stdout: '', stderr: `Error: --file ${path}: the file is empty (FILE)\n` });
    }
    const missing = await s.run(['upload', 'file', '--channel', 'acme-kakao', '--file', join(s.dir, 'nope.pdf'), '--json'], writer);
    expect({ code: missing.code, out: missing.json() }).toEqual({ code: 2, out: { ok: false, error: `--file ${join(s.dir, 'nope.pdf')}: no such file`, code: 'FILE' } });
  });

  it('sends nothing, not even the text or the other files, when one --file is empty (exit 2, FILE)', async () => {
    await s.service.customerWrites('u-empty-file', 'The terms please');
    const pdf = join(s.dir, 'terms-whole.pdf');
    writeFileSync(pdf, '%PDF-1.4 terms');
    const empty = join(s.dir, 'empty-send.pdf');
    writeFileSync(empty, '');
    const run = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-empty-file', '--file', pdf, '--file', empty, '--text', 'Here you are', '--json'], writer);
    expect({ code: run.code, out: run.json() }).toEqual({ code: 2, out: { ok: false, error: `--file ${empty}: the file is empty`, code: 'FILE' } });
    expect(await agentTexts('u-empty-file')).toEqual([]);
  });

  it('sends an image as an image bubble by its content, whatever its name (a PNG without extension)', async () => {
    await s.service.customerWrites('u-noext', 'A photo please');
    const noext = writePng(join(s.dir, 'noext'), 640, 480);
    const run = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-noext', '--file', noext, '--json'], writer);
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ ok: true, results: [{ kind: 'image', ok: true }] });
    expect((await agentTexts('u-noext')).map((b) => b.kind)).toEqual(['rich']);
  });

  it('exits 3 and says so (ok:false, PARTLY_DONE in --json) when only some --file bubbles were delivered', async () => {
    await s.service.customerWrites('u-partly', 'Both files please');
    const png = writePng(join(s.dir, 'good.png'), 640, 480);
    const fake = join(s.dir, 'fake.png');
    writeFileSync(fake, 'not an image at all');
    const run = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-partly', '--file', fake, '--file', png, '--json'], writer);
    expect(run.code).toBe(3);
    const partly = run.json<{ serial: string; results: Array<{ serial?: string }> }>();
    expect(partly).toEqual({
      ok: false,
      error: '1 of 2 bubbles were not delivered',
      code: 'PARTLY_DONE',
      brandKey: 'acme-kakao',
      userKey: 'u-partly',
      serial: expect.any(String),
      results: [expect.objectContaining({ kind: 'image', ok: false, code: 'UNSUPPORTED_IMAGE' }), expect.objectContaining({ kind: 'image', ok: true })],
    });
    expect(partly.serial).toBe(partly.results[1]?.serial);
    // the JSON says it: nothing repeated on stderr
    expect(run.stderr).toBe('');
    const text = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-partly', '--file', fake, '--file', png], writer);
    expect(text.code).toBe(3);
    expect(text.stdout).toMatch(/^ {2}image fake\.png: failed \(UNSUPPORTED_IMAGE\)/m);
    expect(text.stdout).toMatch(/^ {2}image good\.png: bw-\S+$/m);
    expect(text.stderr).toBe('1 of 2 bubbles were not delivered\n');
    expect((await agentTexts('u-partly')).map((b) => b.kind)).toEqual(['rich', 'rich']);
  });

  it('reports a messenger refusal with its code and the serial (exit 1)', async () => {
    await s.service.customerWrites('u-ended', 'Bye');
    await s.service.call('POST', '/sandbox/customers/u-ended/end', { brandKey: 'acme-kakao' });
    const run = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-ended', '--text', 'too late', '--json'], writer);
    expect(run.code).toBe(1);
    expect(run.json()).toEqual({ ok: false, error: expect.any(String), code: '-502', brandKey: 'acme-kakao', userKey: 'u-ended', serial: expect.any(String), hint: expect.stringMatching(/^nothing was delivered; the refused send has serial bw-/) });
    const text = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-ended', '--text', 'too late'], writer);
    expect(text.code).toBe(1);
    // the serial of the refused send is shown to people too
    expect(text.stderr).toMatch(/^Error: .+ \(-502\)\nHint: nothing was delivered; the refused send has serial bw-\d+-\w+\n$/);
  });

  it('refuses a BrandRead key (exit 1, FORBIDDEN) and a channel of another brand', async () => {
    const reader = await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-text', '--text', 'x', '--json'], { token: TEST_TOKENS.reader });
    expect(reader.code).toBe(1);
    expect(reader.json()).toMatchObject({ ok: false, code: 'FORBIDDEN', status: 403 });
    const foreign = await s.run(['send', '--channel', 'globex-kakao', '--to', 'u-text', '--text', 'x', '--json'], writer);
    expect(foreign.json()).toMatchObject({ ok: false, code: 'FORBIDDEN', error: expect.stringContaining('globex-kakao') });
  });

  it('deletes by --serial, and by exact --text within --within seconds, with a hint when nothing matches', async () => {
    await s.service.customerWrites('u-del', 'Hi');
    const first = (await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-del', '--text', 'Wrong price', '--json'], writer)).json<{ serial: string }>();
    await s.run(['send', '--channel', 'acme-kakao', '--to', 'u-del', '--text', 'Second', '--json'], writer);
    const bySerial = await s.run(['delete', '--channel', 'acme-kakao', '--to', 'u-del', '--serial', first.serial, '--json'], writer);
    expect(bySerial.code).toBe(0);
    expect(bySerial.json()).toEqual({ ok: true, code: '0', message: null, serial: first.serial, brandKey: 'acme-kakao', userKey: 'u-del' });
    const byText = await s.run(['delete', '--channel', 'acme-kakao', '--user', 'u-del', '--text', 'Second', '--within', '600'], writer);
    expect(byText.code).toBe(0);
    expect(byText.stdout).toMatch(/^Deleted bw-\d+-\w+ for u-del on acme-kakao\.\n$/);
    expect(await agentTexts('u-del')).toEqual([
      { kind: 'text', text: 'This message was deleted.', deleted: true },
      { kind: 'text', text: 'This message was deleted.', deleted: true },
    ]);
    // the advice names the tool's flags, not the REST fields (withinSeconds, serial)
    const none = await s.run(['delete', '--channel', 'acme-kakao', '--to', 'u-del', '--text', 'never sent'], writer);
    expect({ code: none.code, stderr: none.stderr }).toEqual({
      code: 1,
      stderr:
        'Error: no message with exactly this text was sent to u-del in the last 180 seconds; widen --within (up to 86400) or pass --serial (NOT_FOUND)\n' +
        'Hint: `brandwire rooms --channel acme-kakao --to u-del` shows the messages with their serials\n',
    });
    const noneJson = await s.run(['delete', '--channel', 'acme-kakao', '--to', 'u-del', '--text', 'never sent', '--within', '600', '--json'], writer);
    expect(noneJson.json()).toEqual({ ok: false, code: 'NOT_FOUND', status: 404, error: 'no message with exactly this text was sent to u-del in the last 600 seconds; widen --within (up to 86400) or pass --serial', hint: '`brandwire rooms --channel acme-kakao --to u-del` shows the messages with their serials' });
    const widest = await s.run(['delete', '--channel', 'acme-kakao', '--to', 'u-del', '--text', 'never sent', '--within', '86400', '--json'], writer);
    expect(widest.json()).toEqual({ ok: false, code: 'NOT_FOUND', status: 404, error: 'no message with exactly this text was sent to u-del in the last 86400 seconds; pass --serial (a message older than 24 hours cannot be deleted)', hint: '`brandwire rooms --channel acme-kakao --to u-del` shows the messages with their serials' });
    const bounds = await s.run(['delete', '--channel', 'acme-kakao', '--to', 'u-del', '--text', 'x', '--within', '5', '--json'], writer);
    expect(bounds.code).toBe(2);
    const neither = await s.run(['delete', '--channel', 'acme-kakao', '--to', 'u-del', '--json'], writer);
    expect(neither.json()).toMatchObject({ ok: false, error: 'pass --serial <serial>, or --text <body> with an optional --within <seconds>', code: 'USAGE' });
  });

  it('asks for personal-info consent on a Kakao-type channel only, once a webhook can take the answer', async () => {
    await s.service.customerWrites('u-consent', 'My address changed');
    const noHook = await s.run(['personal-info', '--channel', 'acme-kakao', '--to', 'u-consent', '--json'], writer);
    expect(noHook.code).toBe(1);
    expect(noHook.json()).toMatchObject({ ok: false, code: 'NO_WEBHOOK', status: 409 });
    const hooked = await s.run(['webhook-domain', 'set', '--channel', 'acme-kakao', '--url', 'http://127.0.0.1:9/bw', '--json'], { token: TEST_TOKENS.admin });
    expect(hooked.code).toBe(0);
    const run = await s.run(['personal-info', '--channel', 'acme-kakao', '--to', 'u-consent', '--json'], writer);
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({ ok: true, brandKey: 'acme-kakao', userKey: 'u-consent', serial: expect.any(String) });
    expect((await s.service.customerChat('u-consent')).at(-1)).toMatchObject({ from: 'agent' });
    await s.service.customerWrites('u-consent', 'Hi', 'acme-naver');
    const naver = await s.run(['personal-info', '--channel', 'acme-naver', '--to', 'u-consent', '--json'], writer);
    expect(naver.code).toBe(1);
    expect(naver.json()).toMatchObject({ ok: false, code: 'UNSUPPORTED_CHANNEL' });
  });

  it('blocks and unblocks a customer, and ends a consultation with a bot hand-off', async () => {
    await s.service.customerWrites('u-block', 'spam');
    const block = await s.run(['block', '--channel', 'acme-kakao', '--to', 'u-block', '--json'], writer);
    expect(block.code).toBe(0);
    expect(block.json()).toMatchObject({ ok: true, code: '0', brandKey: 'acme-kakao', userKey: 'u-block' });
    const unblock = await s.run(['unblock', '--brand', 'acme-kakao', '--user', 'u-block'], writer);
    expect(unblock.code).toBe(0);
    expect(unblock.stdout).toBe('Unblocked u-block on acme-kakao.\n');

    await s.service.customerWrites('u-bot', 'I want the menu');
    const bot = await s.run(['end-with-bot', '--channel', 'acme-kakao', '--to', 'u-bot', '--event', 'bot_menu', '--json'], writer);
    expect(bot.code).toBe(0);
    expect(bot.json()).toMatchObject({ ok: true, brandKey: 'acme-kakao', userKey: 'u-bot', sessionId: expect.any(String) });
    const rooms = (await s.run(['rooms', '--channel', 'acme-kakao', '--json'], writer)).json<{ rooms: Array<{ userKey: string }> }>();
    expect(rooms.rooms.map((r) => r.userKey)).not.toContain('u-bot');
  });

  it('says so when end-with-bot finds no consultation in progress (exit 0, nothing ended); --json keeps the REST answer', async () => {
    await s.service.customerWrites('u-bot-twice', 'Menu, please');
    const ended = await s.run(['end-with-bot', '--channel', 'acme-kakao', '--to', 'u-bot-twice'], writer);
    expect({ code: ended.code, stdout: ended.stdout, stderr: ended.stderr }).toEqual({ code: 0, stdout: 'Ended the consultation with u-bot-twice on acme-kakao.\n', stderr: '' });

    const again = await s.run(['end-with-bot', '--channel', 'acme-kakao', '--to', 'u-bot-twice', '--event', 'bot_menu'], writer);
    expect({ code: again.code, stdout: again.stdout, stderr: again.stderr }).toEqual({
      code: 0,
      stdout: 'No consultation was in progress with u-bot-twice on acme-kakao: nothing was ended.\n',
      stderr: '',
    });
    const never = await s.run(['end-with-bot', '--channel', 'acme-kakao', '--to', 'u-never-wrote', '--json'], writer);
    expect(never.code).toBe(0);
    expect(never.json()).toEqual({ ok: true, code: '0', message: null, sessionId: null, brandKey: 'acme-kakao', userKey: 'u-never-wrote' });
  });

  it('says whether block ended a consultation: it blocks either way (exit 0)', async () => {
    await s.service.customerWrites('u-block-talking', 'spam');
    const talking = await s.run(['block', '--channel', 'acme-kakao', '--to', 'u-block-talking'], writer);
    expect({ code: talking.code, stdout: talking.stdout }).toEqual({ code: 0, stdout: 'Blocked u-block-talking on acme-kakao; this ended the consultation in progress.\n' });

    const idle = await s.run(['block', '--channel', 'acme-kakao', '--to', 'u-block-idle'], writer);
    expect({ code: idle.code, stdout: idle.stdout }).toEqual({ code: 0, stdout: 'Blocked u-block-idle on acme-kakao; no consultation was in progress.\n' });
    const json = await s.run(['block', '--channel', 'acme-kakao', '--to', 'u-block-idle', '--json'], writer);
    expect(json.json()).toEqual({ ok: true, code: '0', message: null, sessionId: null, brandKey: 'acme-kakao', userKey: 'u-block-idle' });
  });
});
