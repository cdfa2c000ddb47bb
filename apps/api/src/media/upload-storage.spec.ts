import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MulterModuleOptions } from '@nestjs/platform-express';
import { FILE_MAX_BYTES } from './media-limits';
import { createUploadOptions, DEFAULT_UPLOAD_DIR, UPLOAD_LIMITS, UPLOAD_MAX_FILES, uploadOptions } from './upload-storage';

describe('upload options', () => {
  it('limits file size to the largest messenger file, 20 files and small fields', () => {
    expect(UPLOAD_LIMITS).toMatchObject({ fileSize: FILE_MAX_BYTES, files: UPLOAD_MAX_FILES, fieldSize: 64 * 1024 });
    expect(UPLOAD_MAX_FILES).toBe(20);
    expect(UPLOAD_LIMITS.parts).toBe(UPLOAD_LIMITS.files + UPLOAD_LIMITS.fields);
  });

  it('stores on disk, reads UTF-8 file names and keeps only their base name', () => {
    const options = createUploadOptions('/somewhere');
    expect(options).toEqual({ storage: expect.anything(), limits: UPLOAD_LIMITS, defParamCharset: 'utf8', preservePath: false });
  });

  it('is what NestJS FileInterceptor takes', () => {
    const forNest: MulterModuleOptions = uploadOptions;
    expect(forNest).toBe(uploadOptions);
  });

  it('puts files under the system temp folder by default', () => {
    expect(DEFAULT_UPLOAD_DIR).toBe(join(tmpdir(), 'brandwire-uploads'));
    expect(uploadOptions.limits).toEqual(UPLOAD_LIMITS);
  });
});
