import { once } from 'node:events';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import express from 'express';
import multer from 'multer';
import { imageDir } from './test-support/images';
import { createUploadOptions, removeUploads, UPLOAD_MAX_FILES } from './upload-storage';

type Reply = { files: Express.Multer.File[]; fields: Record<string, string> } | { error: string };

describe('upload storage', () => {
  let files: Awaited<ReturnType<typeof imageDir>>;
  let uploadDir: string;
  let base: string;
  let server: ReturnType<ReturnType<typeof express>['listen']>;
  let received: Express.Multer.File[] = [];

  beforeAll(async () => {
    files = await imageDir();
    uploadDir = join(files.dir, 'nested', 'uploads');
    const app = express();
    app.post('/upload', multer(createUploadOptions(uploadDir)).array('files', UPLOAD_MAX_FILES), (req, res) => {
      received = (req.files as Express.Multer.File[] | undefined) ?? [];
      res.json({ files: received, fields: req.body as Record<string, string> });
    });
    app.use((error: Error & { code?: string }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      res.status(400).json({ error: error.code ?? error.message });
    });
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await files.cleanup();
  });

  const post = async (form: FormData): Promise<{ status: number; body: Reply }> => {
    const response = await fetch(`${base}/upload`, { method: 'POST', body: form });
    return { status: response.status, body: (await response.json()) as Reply };
  };

  it('streams files to random names in the folder, creating it, whatever the client calls them', async () => {
    const form = new FormData();
    form.append('text', '안녕하세요');
    form.append('files', new Blob(['first'], { type: 'image/jpeg' }), '../../../사진 1.jpg');
    form.append('files', new Blob(['second'], { type: 'application/pdf' }), '/etc/passwd');
    const { status, body } = await post(form);

    expect(status).toBe(200);
    expect(body).toEqual({ fields: { text: '안녕하세요' }, files: expect.any(Array) });
    expect(received.map((f) => [f.originalname, f.mimetype, f.size, f.destination])).toEqual([
      ['사진 1.jpg', 'image/jpeg', 5, uploadDir],
      ['passwd', 'application/pdf', 6, uploadDir],
    ]);
    for (const file of received) {
      expect(file.filename).toMatch(/^upload-[0-9a-f-]{36}$/);
      expect(file.path).toBe(join(uploadDir, file.filename));
    }
    expect(await Promise.all(received.map((f) => readFile(f.path, 'utf8')))).toEqual(['first', 'second']);

    await expect(removeUploads(received)).resolves.toEqual([]);
    expect(await readdir(uploadDir)).toEqual([]);
  });

  it('refuses more than 20 files and leaves nothing behind', async () => {
    const form = new FormData();
    for (let i = 0; i <= UPLOAD_MAX_FILES; i += 1) {
      form.append('files', new Blob([`file ${i}`]), `f${i}.txt`);
    }
    const { status, body } = await post(form);
    expect(status).toBe(400);
    expect(body).toEqual({ error: 'LIMIT_FILE_COUNT' });
    expect(await readdir(uploadDir)).toEqual([]);
  });
});

describe('removeUploads', () => {
  let files: Awaited<ReturnType<typeof imageDir>>;
  beforeAll(async () => {
    files = await imageDir();
  });
  afterAll(() => files.cleanup());

  const upload = async (name: string): Promise<Express.Multer.File> => {
    const path = files.file(name);
    await writeFile(path, name);
    return { path, filename: name, fieldname: 'files', originalname: name } as Express.Multer.File;
  };

  it('takes one file, an array, the record of FileFieldsInterceptor or nothing', async () => {
    const [a, b, c, d] = await Promise.all(['a', 'b', 'c', 'd'].map(upload));
    await expect(removeUploads(a)).resolves.toEqual([]);
    await expect(removeUploads([b])).resolves.toEqual([]);
    // a field may be called `path`: it is still a record of arrays
    await expect(removeUploads({ path: [c], files: [d] })).resolves.toEqual([]);
    await expect(removeUploads(undefined)).resolves.toEqual([]);
    expect(await readdir(files.dir)).toEqual([]);
  });

  it('treats a file already gone as removed and reports one that cannot be removed', async () => {
    const gone = await upload('gone');
    await removeUploads(gone);
    const folder = files.file('a-folder');
    await mkdir(join(folder, 'inside'), { recursive: true });
    const notAFile = { path: folder, filename: 'a-folder' } as Express.Multer.File;
    await expect(removeUploads([gone, notAFile])).resolves.toEqual([folder]);
  });
});
