// Private files encrypted at rest (issue 24, POPIA s. 19; docs/decisions/050-account-deletion-retention-breaches.md):
// envelope encryption in the application, the same on local disk and in S3. Each file gets its own
// random 256-bit data key; the bytes are sealed with AES-256-GCM under that key (the storage key as
// additional data, so a file moved to another key does not open), and the data key is itself sealed
// with AES-256-GCM under the master key from the environment (DOCUMENT_ENCRYPTION_KEY, 32 bytes in
// base64 or hex). The store only ever holds:
//   "KAROO-ENC1\n" | key IV (12) | key tag (16) | wrapped data key (32) | data IV (12) | data tag (16) | ciphertext
// Files written before encryption (no header) are still read as they are; the documents sweep
// (modules/data-protection) rewrites them sealed.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Storage, StoredFile } from './storage';

const MAGIC = Buffer.from('KAROO-ENC1\n', 'ascii');
const IV = 12;
const TAG = 16;
const KEY = 32;
const HEADER = MAGIC.length + IV + TAG + KEY + IV + TAG;

/** Whether stored bytes are sealed by this scheme (a plaintext PDF or image never starts with the header). */
export function isSealed(stored: Buffer): boolean {
  return stored.length >= HEADER && stored.subarray(0, MAGIC.length).equals(MAGIC);
}

function gcmSeal(key: Buffer, plain: Buffer, aad?: Buffer): { iv: Buffer; tag: Buffer; data: Buffer } {
  const iv = randomBytes(IV);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  if (aad) cipher.setAAD(aad);
  const data = Buffer.concat([cipher.update(plain), cipher.final()]);
  return { iv, tag: cipher.getAuthTag(), data };
}

function gcmOpen(key: Buffer, iv: Buffer, tag: Buffer, data: Buffer, aad?: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  if (aad) decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

/** Seals `plain` for the storage key `name` under the master key. */
export function seal(masterKey: Buffer, name: string, plain: Buffer): Buffer {
  const dataKey = randomBytes(KEY);
  const wrapped = gcmSeal(masterKey, dataKey);
  const sealed = gcmSeal(dataKey, plain, Buffer.from(name, 'utf8'));
  dataKey.fill(0);
  return Buffer.concat([MAGIC, wrapped.iv, wrapped.tag, wrapped.data, sealed.iv, sealed.tag, sealed.data]);
}

/** Opens what `seal` wrote (throws if the bytes, the name or the master key do not match). */
export function open(masterKey: Buffer, name: string, stored: Buffer): Buffer {
  let at = MAGIC.length;
  const take = (n: number) => stored.subarray(at, (at += n));
  const keyIv = take(IV);
  const keyTag = take(TAG);
  const wrapped = take(KEY);
  const dataIv = take(IV);
  const dataTag = take(TAG);
  const dataKey = gcmOpen(masterKey, keyIv, keyTag, wrapped);
  try {
    return gcmOpen(dataKey, dataIv, dataTag, stored.subarray(at), Buffer.from(name, 'utf8'));
  } finally {
    dataKey.fill(0);
  }
}

/** A store that seals every file it is given and opens every sealed file it reads. */
export class EncryptedStorage implements Storage {
  constructor(
    readonly inner: Storage,
    private readonly masterKey: Buffer,
  ) {}

  put(key: string, data: Buffer): Promise<void> {
    return this.inner.put(key, seal(this.masterKey, key, data));
  }

  async read(key: string): Promise<Buffer | null> {
    const stored = await this.inner.read(key);
    if (!stored) return null;
    return isSealed(stored) ? open(this.masterKey, key, stored) : stored;
  }

  async stream(key: string): Promise<StoredFile | null> {
    // Documents are small (the upload limit): opened whole, then streamed.
    const data = await this.read(key);
    if (!data) return null;
    return { body: Readable.from([data]), size: data.length, etag: undefined };
  }

  remove(key: string): Promise<void> {
    return this.inner.remove(key);
  }

  /**
   * Rewrites a file written before encryption, sealed. 'sealed': it was rewritten; 'already': it was
   * sealed; 'missing': there is no such file.
   */
  async sealInPlace(key: string): Promise<'sealed' | 'already' | 'missing'> {
    const stored = await this.inner.read(key);
    if (!stored) return 'missing';
    if (isSealed(stored)) return 'already';
    await this.inner.put(key, seal(this.masterKey, key, stored));
    return 'sealed';
  }
}

/** The master key from DOCUMENT_ENCRYPTION_KEY: 32 bytes written as base64 or as 64 hex digits. */
export function parseMasterKey(value: string): Buffer | null {
  const text = value.trim();
  const key = /^[0-9a-f]{64}$/i.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  return key.length === KEY ? key : null;
}

export interface MasterKeySource {
  DATA_DIR: string;
  DOCUMENT_ENCRYPTION_KEY?: string | undefined;
}

/**
 * The master key: DOCUMENT_ENCRYPTION_KEY when set; otherwise (the embedded default) the one kept
 * in DATA_DIR/keys/document-encryption.key, generated there on first use (mode 600). `onGenerated`
 * is told the path once, when it is created, so that the server can say so in its log.
 */
export function documentMasterKey(env: MasterKeySource, onGenerated?: (file: string) => void): Buffer {
  if (env.DOCUMENT_ENCRYPTION_KEY) {
    const key = parseMasterKey(env.DOCUMENT_ENCRYPTION_KEY);
    if (!key) throw new Error('Invalid environment:\n  DOCUMENT_ENCRYPTION_KEY: must be 32 bytes, as base64 or 64 hex digits (e.g. openssl rand -base64 32)');
    return key;
  }
  const file = path.join(env.DATA_DIR, 'keys', 'document-encryption.key');
  if (existsSync(file)) {
    const key = parseMasterKey(readFileSync(file, 'utf8'));
    if (!key) throw new Error(`The document encryption key in ${file} is not 32 bytes of base64; restore it from your backup or set DOCUMENT_ENCRYPTION_KEY`);
    return key;
  }
  const key = randomBytes(KEY);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    writeFileSync(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process of the same data folder wrote it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return documentMasterKey(env, onGenerated);
    throw error;
  }
  chmodSync(file, 0o600);
  onGenerated?.(file);
  return key;
}
