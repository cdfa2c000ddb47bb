import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import multer from 'multer';
import { FILE_MAX_BYTES } from './media-limits';

/** Files per attachment send (one bubble each). */
export const UPLOAD_MAX_FILES = 20;

/**
 * multipart limits: a file may be as large as the largest messenger file (300 MB; audio's 10 MB and images' 5 MB are
 * checked per item afterwards); the text fields (brandKey, userKey, text, imageStyle, brand, imageType, fileType)
 * are small, so few and short fields are allowed.
 */
export const UPLOAD_LIMITS = {
  fileSize: FILE_MAX_BYTES,
  files: UPLOAD_MAX_FILES,
  fields: 16,
  fieldNameSize: 100,
  fieldSize: 64 * 1024,
  parts: UPLOAD_MAX_FILES + 16,
  headerPairs: 200,
} as const;

/** Where `uploadOptions` puts files: a folder of its own under the system temp folder. */
export const DEFAULT_UPLOAD_DIR = join(tmpdir(), 'brandwire-uploads');

/**
 * multer disk storage: every file streams to `dir` (created on first use, owner-only) under a random name; no part
 * of the client's file name reaches the path. The client's name stays available as `file.originalname`.
 */
export function createUploadStorage(dir: string): multer.StorageEngine {
  return multer.diskStorage({
    destination: (_req, _file, done) => {
      mkdir(dir, { recursive: true, mode: 0o700 }).then(
        () => done(null, dir),
        (error: Error) => done(error, dir),
      );
    },
    filename: (_req, _file, done) => done(null, `upload-${randomUUID()}`),
  });
}

/** The multer options we set; assignable both to NestJS's MulterModuleOptions and to multer's own Options. */
export interface UploadOptions {
  storage: multer.StorageEngine;
  limits: NonNullable<multer.Options['limits']>;
  /** Missing from @types/multer, read by multer 2. */
  defParamCharset: string;
  preservePath: boolean;
}

/**
 * Options for NestJS's FileInterceptor/FilesInterceptor (and for multer itself). File names are read as UTF-8
 * (multer's default, latin1, garbles non-Latin names such as Korean ones) and only their base name is kept.
 */
export function createUploadOptions(dir: string): UploadOptions {
  return { storage: createUploadStorage(dir), limits: { ...UPLOAD_LIMITS }, defParamCharset: 'utf8', preservePath: false };
}

/** The options object for the upload and attachment routes, with files under DEFAULT_UPLOAD_DIR. */
export const uploadOptions: UploadOptions = createUploadOptions(DEFAULT_UPLOAD_DIR);

type UploadedFile = Express.Multer.File;
type UploadedFiles = UploadedFile | readonly UploadedFile[] | Readonly<Record<string, readonly UploadedFile[]>>;

// A record from FileFieldsInterceptor holds arrays, so a string `path` can only belong to a single file.
const isUploadedFile = (files: UploadedFiles): files is UploadedFile => typeof (files as { path?: unknown }).path === 'string';

function listUploads(files: UploadedFiles | undefined): readonly UploadedFile[] {
  if (!files) {
    return [];
  }
  if (isUploadedFile(files)) {
    return [files];
  }
  return Array.isArray(files) ? files : Object.values(files).flat();
}

/**
 * Deletes the temp files of a request (a file from FileInterceptor, the array from FilesInterceptor, the record from
 * FileFieldsInterceptor, or nothing). Never rejects, so that clean-up cannot turn an answered request into an
 * error: it resolves to the paths that could not be removed, for the caller to log. Files already gone count as
 * removed.
 */
export async function removeUploads(files: UploadedFiles | undefined): Promise<string[]> {
  const paths = listUploads(files)
    .map((file) => file.path)
    .filter((path) => path !== '');
  const results = await Promise.allSettled(paths.map((path) => rm(path, { force: true })));
  return paths.filter((_path, i) => results[i]?.status === 'rejected');
}
