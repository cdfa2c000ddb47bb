import { RuleContext } from './button-rules';
import { validateWrite } from './write-rules';

const KINDS: Record<string, 'rich' | 'plain' | 'file' | 'audio' | 'video'> = {
  'u:rich': 'rich',
  'u:plain': 'plain',
  'u:file': 'file',
  'u:audio': 'audio',
  'u:video': 'video',
};
const ctx: RuleContext = { chatbotBuilder: false, uploadKindOf: (url) => KINDS[url] };

describe('plain write rules', () => {
  it.each<[string, Record<string, unknown>, number, string]>([
    ['message_type required', { message: 'x' }, -509, 'message_type is required'],
    ['unknown message_type', { message_type: 'ZZ' }, -509, "message_type 'ZZ' is not one of TX, LI, IM, FI, AU"],
    ['a number for message_type', { message_type: 1 }, -509, 'message_type 1 is not one of TX, LI, IM, FI, AU (a string is expected, not a number)'],
    ['TX needs message', { message_type: 'TX' }, -510, 'message is required for message_type TX'],
    ['LI needs message', { message_type: 'LI', message: '' }, -510, 'message is required for message_type LI'],
    ['TX of spaces only', { message_type: 'TX', message: '   ' }, -510, 'message is required for message_type TX (it is only whitespace)'],
    ['TX of a newline and a tab', { message_type: 'TX', message: '\n\t' }, -510, 'message is required for message_type TX (it is only whitespace)'],
    ['TX of ideographic spaces', { message_type: 'TX', message: '\u3000\u3000' }, -510, 'message is required for message_type TX (it is only whitespace)'],
    ['LI of whitespace with links', { message_type: 'LI', message: ' \r\n', links: [{ type: 'BK', name: 'a' }] }, -510, 'message is required for message_type LI (it is only whitespace)'],
    ['TX over 1000', { message_type: 'TX', message: 'a'.repeat(1001) }, -506, 'message is longer than 1000 characters'],
    ['TX of 1001 emoji', { message_type: 'TX', message: '\u{1F600}'.repeat(1001) }, -506, 'message is longer than 1000 characters'],
    ['links only with LI', { message_type: 'TX', message: 'x', links: [] }, -510, 'links is only allowed with message_type LI'],
    ['LI at most 5 links', { message_type: 'LI', message: 'x', links: Array(6).fill({ type: 'BK', name: 'a' }) }, -510, 'links has 6 buttons; message_type LI allows at most 5'],
    ['LI bad quick reply', { message_type: 'LI', message: 'x', supplement: { quick_reply: [{ type: 'BK', name: 'n'.repeat(15) }] } }, -510, 'supplement.quick_reply[0].name is longer than 14 characters'],
    ['LI quick reply url_target other than out', { message_type: 'LI', message: 'x', supplement: { quick_reply: [{ type: 'BK', name: 'n', url_target: 'self' }] } }, -510, "supplement.quick_reply[0].url_target 'self' is not allowed: the only value is out"],
    ['LI auto_answer values', { message_type: 'LI', message: 'x', auto_answer: 'S0' }, -510, "auto_answer 'S0' is not one of"],
    ['IM needs image_url', { message_type: 'IM' }, -510, 'image_url is required for message_type IM'],
    ['IM external url', { message_type: 'IM', image_url: 'https://elsewhere.test/a.png' }, -510, 'image_url is not an image uploaded to the messenger'],
    ['IM with a rich upload', { message_type: 'IM', image_url: 'u:rich' }, -505, 'image_url was uploaded as rich; message_type IM needs image_type plain'],
    ['FI needs file_url', { message_type: 'FI' }, -510, 'file_url is required for message_type FI'],
    ['AU with a file upload', { message_type: 'AU', file_url: 'u:file' }, -510, 'file_url was uploaded as file, which message_type AU cannot send'],
    ['FI with an image', { message_type: 'FI', file_url: 'u:plain' }, -510, 'which message_type FI cannot send'],
  ])('%s', (_name, body, code, fragment) => {
    const r = validateWrite(body, ctx);
    const violation = r.ok ? undefined : r.violation;
    expect(violation?.code).toBe(code);
    expect(violation?.detail).toContain(fragment);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['TX', { message_type: 'TX', message: 'hello' }, 'text'],
    ['TX with text between whitespace', { message_type: 'TX', message: '  hi\n' }, 'text'],
    ['TX of 1000 emoji (2,000 UTF-16 units)', { message_type: 'TX', message: '\u{1F600}'.repeat(1000) }, 'text'],
    ['LI with links and quick replies', { message_type: 'LI', message: 'x', links: [{ type: 'WL', name: 'w', url_mobile: 'https://m.test' }], supplement: { quick_reply: [{ type: 'BK', name: 'y' }] }, auto_answer: 'S1' }, 'text'],
    ['IM plain', { message_type: 'IM', image_url: 'u:plain' }, 'image'],
    ['FI video', { message_type: 'FI', file_url: 'u:video', file_name: 'v.mp4', file_size: 10 }, 'file'],
    ['AU audio', { message_type: 'AU', file_url: 'u:audio' }, 'file'],
  ])('accepts %s', (_name, body, kind) => {
    const r = validateWrite(body, ctx);
    expect(r.ok ? r.bubble.kind : r.violation.detail).toBe(kind);
  });
});
