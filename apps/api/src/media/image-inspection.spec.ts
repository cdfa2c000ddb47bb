import { claimsImage, sniffImageFormat } from './image-inspection';

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
    ['RIFF....WEBP (webp)', Buffer.from('RIFF\x00\x00\x00\x00WEBP').toString('hex')],
    ['ftypheic (heic)', '0000001c6674797068656963'],
    ['text', Buffer.from('hello, world').toString('hex')],
    ['PNG signature cut short', '89 50 4e 47'],
    ['GIF88a', Buffer.from('GIF88a').toString('hex')],
    ['empty', ''],
  ])('gives undefined for %s', (_name, hex) => {
    expect(sniffImageFormat(bytes(hex))).toBeUndefined();
  });
});

describe('claimsImage', () => {
  it.each([
    ['image/jpeg', undefined],
    ['IMAGE/PNG; charset=binary', 'x.bin'],
    ['image/gif', 'x'],
    [undefined, 'photo.JPG'],
    ['application/octet-stream', 'photo.jpeg'],
    ['text/plain', 'photo.png'],
  ])('is true for Content-Type %s or name %s', (contentType, fileName) => {
    expect(claimsImage(contentType, fileName)).toBe(true);
  });

  it.each([
    ['image/webp', 'a.webp'],
    ['image/heic', 'IMG_0001.HEIC'],
    ['application/pdf', 'report.pdf'],
    [undefined, 'jpg'],
    [undefined, undefined],
  ])('is false for Content-Type %s and name %s', (contentType, fileName) => {
    expect(claimsImage(contentType, fileName)).toBe(false);
  });
});
