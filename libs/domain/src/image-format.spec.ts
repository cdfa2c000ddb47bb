import { IMAGE_SIGNATURE_BYTES, imageMediaType, sniffImageFormat } from './image-format';

const bytes = (hex: string) => Buffer.from(hex.replace(/ /g, ''), 'hex');

describe('sniffImageFormat', () => {
  it.each([
    ['ff d8 ff e0 00 10 4a 46', 'jpeg'],
    ['ff d8 ff e1 12 34 45 78', 'jpeg'],
    ['89 50 4e 47 0d 0a 1a 0a', 'png'],
    [Buffer.from('GIF89a\x01\x00').toString('hex'), 'gif'],
    [Buffer.from('GIF87a\x01\x00').toString('hex'), 'gif'],
  ])('recognises %s as %s', (hex, format) => {
    expect(sniffImageFormat(bytes(hex))).toBe(format);
  });

  it.each([
    ['webp', Buffer.from('RIFF\x00\x00\x00\x00WEBP').toString('hex')],
    ['heic', '0000001c6674797068656963'],
    ['GIF88a', Buffer.from('GIF88a').toString('hex')],
    ['text', Buffer.from('not an image at all').toString('hex')],
    ['a PNG signature cut short', '89 50 4e 47'],
    ['nothing', ''],
  ])('gives undefined for %s', (_name, hex) => {
    expect(sniffImageFormat(bytes(hex))).toBeUndefined();
  });

  it('needs no more than the first IMAGE_SIGNATURE_BYTES bytes', () => {
    expect(IMAGE_SIGNATURE_BYTES).toBe(8);
  });
});

describe('imageMediaType', () => {
  it('is the media type of an image by its bytes, whatever the file is called', () => {
    expect(imageMediaType(bytes('89 50 4e 47 0d 0a 1a 0a'))).toBe('image/png');
    expect(imageMediaType(bytes('ff d8 ff e0'))).toBe('image/jpeg');
    expect(imageMediaType(Buffer.from('GIF89a'))).toBe('image/gif');
    expect(imageMediaType(Buffer.from('%PDF-1.4'))).toBeUndefined();
  });
});
