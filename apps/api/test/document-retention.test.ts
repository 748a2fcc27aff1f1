// Identity documents kept only as long as needed (POPIA s. 14) and sealed at rest (s. 19), on the
// real database with the test clock (decision 013; docs/decisions/050-account-deletion-retention-breaches.md):
// a verified account's files go after the retention period (a setting), keeping the fact of
// verification, who verified and when; rejected and unfinished documents go sooner; the person is
// told. Files on disk and in S3 are never the plaintext, administrators still view them, older
// plaintext files are sealed by the sweep, and no private file is served from a public path.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentMasterKey, isSealed, type EncryptedStorage } from '../src/lib/document-encryption';
import { createS3Client, createStorage } from '../src/lib/storage';
import { loadEnv } from '../src/env';
import { applyDocumentRetention, sealOlderDocuments } from '../src/modules/data-protection';
import { authHeader, createSignedInUser, createTestApp, DAY, documentUpload, expectError, expectOk, login, pdfBytes, type TestApp } from './helpers';
import { startTestS3 } from './helpers/s3';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let admin: Signed;
const BASE = '2030-02-01T08:00:00.000Z';

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(BASE);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
});
afterAll(() => t.close());

const keysOf = async (userId: string) => (await t.db.selectFrom('user_documents').select(['storage_key', 'file_erased_at']).where('user_id', '=', userId).execute());
const onDisk = (key: string) => path.join(t.ctx.env.FILES_DIR, 'private', key);
const download = (id: string, type: string, headers: Record<string, string>) => t.app.inject({ method: 'GET', url: `/api/user/${id}/documents/${type}`, headers });
/** The administrator signed in afresh at the clock's time (sessions end as the clock moves by months). */
const adminNow = async () => authHeader(await login(t.app, admin.user.username));
const decide = async (id: string, verification_status: 'verified' | 'rejected') =>
  t.app.inject({ method: 'PUT', url: `/api/user/${id}/verification`, headers: await adminNow(), payload: { verification_status, notes: verification_status === 'rejected' ? 'The ID is unreadable' : '' } });

describe('retention of identity documents', () => {
  it('deletes unfinished and rejected documents after 30 days and verified ones 90 days after verification, keeping who verified and when', async () => {
    const verified = await createSignedInUser(t.app, t.ctx, { verification_status: 'pending_verification', withDocuments: true });
    expectOk(await decide(verified.user.id, 'verified'));
    const rejected = await createSignedInUser(t.app, t.ctx, { verification_status: 'pending_verification', withDocuments: true });
    expectOk(await decide(rejected.user.id, 'rejected'));
    const unfinished = await createSignedInUser(t.app, t.ctx, { verification_status: 'pending_upload', withDocuments: ['id_document'] });
    const waiting = await createSignedInUser(t.app, t.ctx, { verification_status: 'pending_verification', withDocuments: true });
    const files = async (u: Signed) => (await keysOf(u.user.id)).map((d) => d.storage_key);
    const verifiedFiles = await files(verified);
    const rejectedFiles = await files(rejected);
    const unfinishedFiles = await files(unfinished);
    for (const key of [...verifiedFiles, ...rejectedFiles, ...unfinishedFiles]) expect(existsSync(onDisk(key))).toBe(true);

    t.clock.set(new Date(Date.parse(BASE) + 29 * DAY));
    expect(await applyDocumentRetention(t.ctx)).toEqual({ verified: 0, rejected: 0, notSubmitted: 0, people: 0 });

    t.clock.set(new Date(Date.parse(BASE) + 30 * DAY + 1000));
    expect(await applyDocumentRetention(t.ctx)).toEqual({ verified: 0, rejected: 3, notSubmitted: 1, people: 2 });
    expect(await keysOf(rejected.user.id)).toEqual([]);
    expect(await keysOf(unfinished.user.id)).toEqual([]);
    for (const key of [...rejectedFiles, ...unfinishedFiles]) expect(existsSync(onDisk(key))).toBe(false);
    expect(await keysOf(waiting.user.id)).toHaveLength(3);
    expect((await keysOf(verified.user.id)).every((d) => d.file_erased_at === null)).toBe(true);
    // Told: in the bell, and by email whatever the notification setting.
    const notice = await t.db.selectFrom('notifications').select(['title', 'message']).where('user_id', '=', unfinished.user.id).executeTakeFirstOrThrow();
    expect(notice.title).toBe('Your unfinished documents have been deleted');
    expect(notice.message).toMatch(/more than 30 days ago .* \(ID document\.\)/);
    expect((await t.outbox.latest(rejected.user.email))?.subject).toBe('Your rejected documents have been deleted');

    t.clock.set(new Date(Date.parse(BASE) + 89 * DAY));
    expect((await applyDocumentRetention(t.ctx)).verified).toBe(0);
    t.clock.set(new Date(Date.parse(BASE) + 90 * DAY + 1000));
    expect(await applyDocumentRetention(t.ctx)).toEqual({ verified: 3, rejected: 0, notSubmitted: 0, people: 1 });
    for (const key of verifiedFiles) expect(existsSync(onDisk(key))).toBe(false);
    const kept = await t.db.selectFrom('user_documents').select(['type', 'file_erased_at', 'erasure_reason', 'verified_by', 'verified_at']).where('user_id', '=', verified.user.id).execute();
    expect(kept).toHaveLength(3);
    for (const row of kept) {
      expect(row).toMatchObject({ erasure_reason: 'verified_retention', verified_by: admin.user.id, verified_at: new Date(BASE) });
      expect(row.file_erased_at).toEqual(new Date(Date.parse(BASE) + 90 * DAY + 1000));
    }
    const user = await t.db.selectFrom('users').select(['verification_status', 'verified_at']).where('id', '=', verified.user.id).executeTakeFirstOrThrow();
    expect(user).toEqual({ verification_status: 'verified', verified_at: new Date(BASE) });
    expectError(await download(verified.user.id, 'id_document', await adminNow()), 404);
    expect((await t.outbox.latest(verified.user.email))?.subject).toBe('Your identity documents have been deleted');
    // Nothing left to do: a second run deletes nothing.
    expect(await applyDocumentRetention(t.ctx)).toEqual({ verified: 0, rejected: 0, notSubmitted: 0, people: 0 });
  });

  it('follows the settings', async () => {
    t.clock.set(BASE);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers: await adminNow(), payload: { document_retention_days: 7 } }));
    const person = await createSignedInUser(t.app, t.ctx, { verification_status: 'pending_verification', withDocuments: true });
    expectOk(await decide(person.user.id, 'verified'));
    t.clock.set(new Date(Date.parse(BASE) + 7 * DAY + 1000));
    expect((await applyDocumentRetention(t.ctx)).verified).toBe(3);
    const headers = await adminNow();
    expectError(await t.app.inject({ method: 'PUT', url: '/api/settings', headers, payload: { document_retention_days: 0 } }), 400, /between 1 and 3650 days/);
    expectOk(await t.app.inject({ method: 'PUT', url: '/api/settings', headers, payload: { document_retention_days: 90 } }));
  });
});

describe('documents encrypted at rest', () => {
  it('stores an upload sealed on disk, never as the plaintext, and administrators still view it', async () => {
    t.clock.set(BASE);
    const person = await createSignedInUser(t.app, t.ctx, { verification_status: 'pending_upload' });
    const pdf = pdfBytes('Identity document of a person, page 1');
    const up = documentUpload('id_document', pdf, 'my-id.pdf');
    expectOk(await t.app.inject({ method: 'POST', url: `/api/user/${person.user.id}/upload-document`, headers: { ...person.headers, ...up.headers }, payload: up.payload }));
    const [doc] = await keysOf(person.user.id);
    const raw = await readFile(onDisk(doc!.storage_key));
    expect(isSealed(raw)).toBe(true);
    expect(raw.includes(Buffer.from('%PDF'))).toBe(false);
    expect(raw.includes(Buffer.from('Identity document of a person'))).toBe(false);
    const viewed = await download(person.user.id, 'id_document', await adminNow());
    expect(viewed.statusCode).toBe(200);
    expect(viewed.rawPayload.subarray(0, 4).toString()).toBe('%PDF');
    expect(viewed.headers['cache-control']).toBe('private, no-store');
    expect((await download(person.user.id, 'id_document', person.headers)).rawPayload.equals(viewed.rawPayload)).toBe(true);
    // Never from a public path: the public files route does not reach the private store.
    expect((await t.app.inject({ method: 'GET', url: `/uploads/${doc!.storage_key}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/uploads/../private/${doc!.storage_key}` })).statusCode).toBe(404);
  });

  it('seals documents written before encryption, which stay readable', async () => {
    const person = await createSignedInUser(t.app, t.ctx, { verification_status: 'pending_verification', withDocuments: true });
    const store = t.ctx.privateFiles as EncryptedStorage;
    const plain = pdfBytes('An old, plaintext document');
    const [doc] = await keysOf(person.user.id);
    await store.inner.put(doc!.storage_key, plain);
    expect(await readFile(onDisk(doc!.storage_key))).toEqual(plain);
    expect((await t.ctx.privateFiles.read(doc!.storage_key))!.equals(plain)).toBe(true);
    expect(await sealOlderDocuments(t.ctx)).toBeGreaterThanOrEqual(3);
    const raw = await readFile(onDisk(doc!.storage_key));
    expect(isSealed(raw)).toBe(true);
    expect(raw.includes(Buffer.from('An old, plaintext document'))).toBe(false);
    expect((await t.ctx.privateFiles.read(doc!.storage_key))!.equals(plain)).toBe(true);
    expect(await t.db.selectFrom('user_documents').select('id').where('encrypted', '=', false).where('file_erased_at', 'is', null).execute()).toEqual([]);
    expect(await sealOlderDocuments(t.ctx)).toBe(0);
    // Tampered bytes do not open.
    raw.writeUInt8(raw.readUInt8(raw.length - 1) ^ 0xff, raw.length - 1);
    await writeFile(onDisk(doc!.storage_key), raw);
    await expect(t.ctx.privateFiles.read(doc!.storage_key)).rejects.toThrow();
  });

  it('seals in S3 too: the object in the bucket is not the plaintext', async () => {
    const s3 = await startTestS3();
    const dir = await mkdtemp(path.join(tmpdir(), 'karoo-seal-'));
    try {
      const env = loadEnv({ ...s3.env, DATA_DIR: dir, DOCUMENT_ENCRYPTION_KEY: t.ctx.env.DOCUMENT_ENCRYPTION_KEY! });
      const { privateFiles } = createStorage(env);
      const plain = pdfBytes('A document in the bucket');
      await privateFiles.put('users/u1/id_document-1.pdf', plain);
      const object = await createS3Client(env).send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'private/users/u1/id_document-1.pdf' }));
      const stored = Buffer.from(await object.Body!.transformToByteArray());
      expect(isSealed(stored)).toBe(true);
      expect(stored.includes(Buffer.from('A document in the bucket'))).toBe(false);
      expect((await privateFiles.read('users/u1/id_document-1.pdf'))!.equals(plain)).toBe(true);
    } finally {
      await s3.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('generates the embedded default key once in DATA_DIR/keys (mode 600), and refuses a malformed one', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'karoo-key-'));
    try {
      const told: string[] = [];
      const first = documentMasterKey({ DATA_DIR: dir }, (file) => told.push(file));
      const again = documentMasterKey({ DATA_DIR: dir }, (file) => told.push(file));
      expect(first.equals(again)).toBe(true);
      expect(told).toEqual([path.join(dir, 'keys', 'document-encryption.key')]);
      expect((await stat(told[0]!)).mode & 0o777).toBe(0o600);
      expect(() => documentMasterKey({ DATA_DIR: dir, DOCUMENT_ENCRYPTION_KEY: 'too-short' })).toThrow(/DOCUMENT_ENCRYPTION_KEY: must be 32 bytes/);
      expect(documentMasterKey({ DATA_DIR: dir, DOCUMENT_ENCRYPTION_KEY: 'ab'.repeat(32) }).toString('hex')).toBe('ab'.repeat(32));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
