// File storage behind one interface (docs/decisions/022-object-storage.md), in two stores per app:
// ctx.privateFiles (identity and registration documents, only ever served through authorised
// routes) and ctx.publicFiles (car photos, served at /uploads/ by lib/public-files.ts). Both live on
// local disk under DATA_DIR/files (the embedded default) or in one S3-compatible bucket under the
// key prefixes `private/` and `public/`, so that several instances share them.
import { createReadStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { Env } from '../env';
import { AppError } from './app-error';
import { documentMasterKey, EncryptedStorage } from './document-encryption';

/** A stored file opened for sending: its bytes as a stream, its size and a validator when known. */
export interface StoredFile {
  body: Readable;
  size: number | undefined;
  etag: string | undefined;
}

export interface Storage {
  put(key: string, data: Buffer): Promise<void>;
  /** The file's bytes, or null when there is none. */
  read(key: string): Promise<Buffer | null>;
  /** The file as a stream (to send it without holding it in memory), or null when there is none. */
  stream(key: string): Promise<StoredFile | null>;
  /** Deletes the file; a missing file is not an error. */
  remove(key: string): Promise<void>;
}

/** Our keys are relative paths of plain names (`cars/<id>/<random>.png`); anything else is refused. */
const KEY = /^[\w.-]+(\/[\w.-]+)*$/;

export function isValidStorageKey(key: string): boolean {
  return KEY.test(key) && !key.split('/').some((part) => part === '.' || part === '..');
}

function checkKey(key: string): string {
  if (!isValidStorageKey(key)) throw new Error(`Invalid storage key: ${key}`);
  return key;
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
};

/** The content type a key is sent with, from its extension (we name every file we store). */
export function contentTypeOf(key: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(key)?.[1]?.toLowerCase() ?? '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

export class LocalDiskStorage implements Storage {
  constructor(private readonly root: string) {}

  private resolve(key: string): string {
    const full = path.resolve(this.root, checkKey(key));
    if (!full.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`Storage key escapes the root: ${key}`);
    return full;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const full = this.resolve(key);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, data);
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      return await readFile(this.resolve(key));
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async stream(key: string): Promise<StoredFile | null> {
    const full = this.resolve(key);
    try {
      const info = await stat(full);
      if (!info.isFile()) return null;
      return { body: createReadStream(full), size: info.size, etag: `W/"${info.size.toString(16)}-${info.mtimeMs.toString(16)}"` };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.resolve(key), { force: true });
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR';
}

export const STORAGE_UNAVAILABLE = 'File storage is unavailable right now. Please try again in a few minutes.';

/** A store that cannot be reached or refuses us: a 503 for the user, logged with its cause. */
function unavailable(error: unknown): AppError {
  return new AppError(503, STORAGE_UNAVAILABLE, undefined, { cause: error });
}

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException) return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
  return false;
}

export interface S3StorageOptions {
  bucket: string;
  /** Prepended to every key: `private/` or `public/`. */
  prefix: string;
}

/** An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, ...); keys live under `prefix`. */
export class S3Storage implements Storage {
  constructor(
    private readonly client: S3Client,
    private readonly options: S3StorageOptions,
  ) {}

  private target(key: string) {
    return { Bucket: this.options.bucket, Key: `${this.options.prefix}${checkKey(key)}` };
  }

  async put(key: string, data: Buffer): Promise<void> {
    const target = this.target(key);
    try {
      await this.client.send(new PutObjectCommand({ ...target, Body: data, ContentLength: data.length, ContentType: contentTypeOf(key) }));
    } catch (error) {
      throw unavailable(error);
    }
  }

  async read(key: string): Promise<Buffer | null> {
    const file = await this.stream(key);
    if (!file) return null;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of file.body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
      return Buffer.concat(chunks);
    } catch (error) {
      throw unavailable(error);
    }
  }

  async stream(key: string): Promise<StoredFile | null> {
    const target = this.target(key);
    try {
      const answer = await this.client.send(new GetObjectCommand(target));
      if (!answer.Body) return null;
      return { body: answer.Body as Readable, size: answer.ContentLength, etag: answer.ETag };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw unavailable(error);
    }
  }

  async remove(key: string): Promise<void> {
    const target = this.target(key);
    try {
      // S3 answers a delete of a missing key with success too.
      await this.client.send(new DeleteObjectCommand(target));
    } catch (error) {
      if (isNotFound(error)) return;
      throw unavailable(error);
    }
  }
}

type StorageEnv = Pick<Env, 'FILES_DIR' | 'S3_BUCKET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE'> &
  Partial<Pick<Env, 'DATA_DIR' | 'DOCUMENT_ENCRYPTION_KEY'>>;

export interface Stores {
  privateFiles: Storage;
  publicFiles: Storage;
}

/** The S3 client for the configured bucket; path-style addressing whenever an endpoint is given (MinIO and similar). */
export function createS3Client(env: StorageEnv): S3Client {
  return new S3Client({
    region: env.S3_REGION,
    ...(env.S3_ENDPOINT ? { endpoint: env.S3_ENDPOINT } : {}),
    forcePathStyle: env.S3_FORCE_PATH_STYLE ?? !!env.S3_ENDPOINT,
    // Without these keys the SDK's own chain applies (instance role, AWS_* variables, ...).
    ...(env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY } }
      : {}),
    // Checksums only where S3 requires them: several S3-compatible stores refuse the newer ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000 },
  });
}

/**
 * The app's two stores: one S3 bucket (keys under `private/` and `public/`) when S3_BUCKET is set,
 * otherwise local disk under DATA_DIR/files/private and DATA_DIR/files/public. Private files are
 * sealed by envelope encryption (lib/document-encryption.ts) under DOCUMENT_ENCRYPTION_KEY, or in
 * the embedded default under a key generated once in DATA_DIR/keys (`log` is told where).
 */
export function createStorage(env: StorageEnv, log?: { warn(message: string): void }): Stores {
  const masterKey = documentMasterKey({ DATA_DIR: env.DATA_DIR ?? path.dirname(env.FILES_DIR), DOCUMENT_ENCRYPTION_KEY: env.DOCUMENT_ENCRYPTION_KEY }, (file) =>
    log?.warn(`Generated a document encryption key in ${file}: identity documents are encrypted with it. Back it up with the data folder, or set DOCUMENT_ENCRYPTION_KEY (openssl rand -base64 32) to manage it yourself; without it the documents cannot be read.`),
  );
  if (env.S3_BUCKET) {
    const client = createS3Client(env);
    return {
      privateFiles: new EncryptedStorage(new S3Storage(client, { bucket: env.S3_BUCKET, prefix: 'private/' }), masterKey),
      publicFiles: new S3Storage(client, { bucket: env.S3_BUCKET, prefix: 'public/' }),
    };
  }
  return {
    privateFiles: new EncryptedStorage(new LocalDiskStorage(path.join(env.FILES_DIR, 'private')), masterKey),
    publicFiles: new LocalDiskStorage(path.join(env.FILES_DIR, 'public')),
  };
}
