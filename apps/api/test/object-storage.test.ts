// Object storage (docs/decisions/022-object-storage.md): the S3 store against a real S3-compatible
// server (s3rver on loopback), and two app instances on one database and one bucket, each with its
// own data folder, as two servers behind a load balancer: whatever one stores, the other serves.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@karoo/shared';
import { createAppContext } from '../src/app-context';
import { buildApp } from '../src/app';
import type { AppContext } from '../src/context';
import { DEMO_USERS, seedDemo } from '../src/db/seed';
import { loadEnv, type Env } from '../src/env';
import { AppError } from '../src/lib/app-error';
import { createS3Client, createStorage, LocalDiskStorage, S3Storage, STORAGE_UNAVAILABLE, type Storage } from '../src/lib/storage';
import {
  createSignedInUser,
  createTestApp,
  documentUpload,
  expectError,
  expectOk,
  jpegBytes,
  multipart,
  pdfBytes,
  pngBytes,
  type TestApp,
} from './helpers';
import { startTestS3, type TestS3 } from './helpers/s3';
import { newCarBody, pngDataUrl } from './helpers/vehicles';

const INDEX_HTML = '<!doctype html><html><body><div id="root"></div></body></html>';

let s3: TestS3;
let client: S3Client;
let a: TestApp;
let b: { app: FastifyInstance; ctx: AppContext };
const tempDirs: string[] = [];

async function tempDir(prefix: string) {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** The same settings on another server: its own data folder, the same database and bucket. */
async function secondInstance(ctx: AppContext, webDistDir: string) {
  const dataDir = await tempDir('karoo-b-');
  const env: Env = { ...ctx.env, DATA_DIR: dataDir, FILES_DIR: path.join(dataDir, 'files') };
  const { db, clock, mailer } = ctx;
  const ctxB: AppContext = createAppContext({ db, clock, mailer, env, ...createStorage(env) });
  const app = await buildApp({ ctx: ctxB, logger: pino({ level: 'silent' }), webDistDir });
  await app.ready();
  return { app, ctx: ctxB };
}

async function objectKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys;
}

beforeAll(async () => {
  s3 = await startTestS3();
  client = createS3Client(loadEnv({ ...s3.env, DATA_DIR: tmpdir() }));
  const webDistDir = await tempDir('karoo-web-');
  await writeFile(path.join(webDistDir, 'index.html'), INDEX_HTML);
  a = await createTestApp({ env: s3.env, webDistDir });
  b = await secondInstance(a.ctx, webDistDir);
});

afterAll(async () => {
  await b?.app.close();
  await a?.close();
  client?.destroy();
  await s3?.close();
  for (const dir of tempDirs) await rm(dir, { recursive: true, force: true });
});

describe('the S3 store', () => {
  let store: Storage;
  beforeAll(() => {
    store = new S3Storage(client, { bucket: s3.bucket, prefix: 'private/' });
  });

  it('puts, reads, streams and removes a file under its prefix', async () => {
    const data = pdfBytes('Round trip');
    await store.put('tests/round-trip.pdf', data);
    expect(await store.read('tests/round-trip.pdf')).toEqual(data);
    const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'private/tests/round-trip.pdf' }));
    expect(head.ContentLength).toBe(data.length);
    expect(head.ContentType).toBe('application/pdf');

    const file = await store.stream('tests/round-trip.pdf');
    expect(file?.size).toBe(data.length);
    expect(file?.etag).toBeTruthy();
    const chunks: Buffer[] = [];
    for await (const chunk of file!.body) chunks.push(Buffer.from(chunk as Uint8Array));
    expect(Buffer.concat(chunks)).toEqual(data);

    await store.put('tests/round-trip.pdf', pdfBytes('Replaced'));
    expect((await store.read('tests/round-trip.pdf'))?.toString('latin1')).toContain('Replaced');
    await store.remove('tests/round-trip.pdf');
    expect(await store.read('tests/round-trip.pdf')).toBeNull();
    expect(await objectKeys('private/tests/')).toEqual([]);
  });

  it('answers null for a missing key, and removing one is not an error', async () => {
    expect(await store.read('tests/never-written.pdf')).toBeNull();
    expect(await store.stream('tests/never-written.pdf')).toBeNull();
    await expect(store.remove('tests/never-written.pdf')).resolves.toBeUndefined();
  });

  it('keeps the private and public prefixes apart', async () => {
    const pub = new S3Storage(client, { bucket: s3.bucket, prefix: 'public/' });
    await store.put('tests/only-private.png', pngBytes());
    expect(await pub.read('tests/only-private.png')).toBeNull();
    await store.remove('tests/only-private.png');
  });

  it('refuses keys that are not plain relative paths, as local disk does', async () => {
    const local = new LocalDiskStorage(await tempDir('karoo-local-'));
    for (const s of [store, local]) {
      for (const key of ['../escape.pdf', 'a/../../b.pdf', '/abs.pdf', 'a//b.pdf', '', 'a b.pdf']) {
        await expect(s.put(key, pdfBytes()), key).rejects.toThrow(/storage key/i);
      }
    }
  });

  it('answers 503 with a clear message when the store cannot be reached', async () => {
    const down = createStorage(loadEnv({ ...s3.env, S3_ENDPOINT: 'http://127.0.0.1:9', DATA_DIR: tmpdir() })).privateFiles;
    const error = await down.put('tests/x.pdf', pdfBytes()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 503, message: STORAGE_UNAVAILABLE });

    // Through the API: an upload while the bucket is down is a 503 in the envelope, never a 500.
    const app = await buildApp({ ctx: { ...a.ctx, privateFiles: down }, logger: pino({ level: 'silent' }) });
    try {
      const { user, headers } = await createSignedInUser(app, a.ctx);
      const body = documentUpload('id_document', pdfBytes());
      const res = await app.inject({ method: 'POST', url: `/api/user/${user.id}/upload-document`, headers: { ...headers, ...body.headers }, payload: body.payload });
      expectError(res, 503, STORAGE_UNAVAILABLE);
    } finally {
      await app.close();
    }
  });
});

describe('the environment', () => {
  it('picks S3 only with S3_BUCKET, and refuses half an S3 set-up', () => {
    expect(createStorage(loadEnv({ DATA_DIR: tmpdir() })).publicFiles).toBeInstanceOf(LocalDiskStorage);
    expect(createStorage(loadEnv({ ...s3.env, DATA_DIR: tmpdir() })).publicFiles).toBeInstanceOf(S3Storage);
    expect(() => loadEnv({ S3_ENDPOINT: s3.endpoint })).toThrow(/S3_BUCKET: required/);
    expect(() => loadEnv({ S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'only-the-id' })).toThrow(/set both or neither/);
    expect(() => loadEnv({ S3_BUCKET: 'b', S3_ENDPOINT: 'not a url' })).toThrow(/S3_ENDPOINT/);
  });
});

describe('two instances on one bucket', () => {
  const uploadDocument = (app: FastifyInstance, id: string, headers: Record<string, string>, data: Buffer) => {
    const body = documentUpload('id_document', data);
    return app.inject({ method: 'POST', url: `/api/user/${id}/upload-document`, headers: { ...headers, ...body.headers }, payload: body.payload });
  };

  it('serves a user document uploaded through A from B, to its owner only; a replaced one leaves the bucket', async () => {
    const owner = await createSignedInUser(a.app, a.ctx);
    const other = await createSignedInUser(a.app, a.ctx);
    const data = pdfBytes('Identity document');
    expectOk(await uploadDocument(a.app, owner.user.id, owner.headers, data));
    const row = await a.db.selectFrom('user_documents').selectAll().where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
    expect(await objectKeys(`private/${row.storage_key}`)).toEqual([`private/${row.storage_key}`]);
    expect(await objectKeys(`public/users/${owner.user.id}`)).toEqual([]);

    const url = `/api/user/${owner.user.id}/documents/id_document`;
    const res = await b.app.inject({ method: 'GET', url, headers: owner.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.rawPayload).toEqual(data);
    expectError(await b.app.inject({ method: 'GET', url, headers: other.headers }), 404);
    expectError(await b.app.inject({ method: 'GET', url }), 401);

    // Replaced through B: the first file is deleted from the bucket, A serves the new one.
    expectOk(await uploadDocument(b.app, owner.user.id, owner.headers, pngBytes()));
    expect(await objectKeys(`private/${row.storage_key}`)).toEqual([]);
    const again = await a.app.inject({ method: 'GET', url, headers: owner.headers });
    expect(again.headers['content-type']).toBe('image/png');
    // Pictures are stored re-encoded (decision 031): A serves exactly what B put in the bucket.
    const replaced = await a.db.selectFrom('user_documents').select('storage_key').where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
    expect(again.rawPayload).toEqual(await b.ctx.privateFiles.read(replaced.storage_key));
  });

  it('serves a car registration document uploaded through A from B', async () => {
    const host = await createSignedInUser(a.app, a.ctx, { role: 'host', verification_status: 'verified' });
    const stranger = await createSignedInUser(a.app, a.ctx, { verification_status: 'verified' });
    const car = expectOk<Car>(await a.app.inject({ method: 'POST', url: `/api/car/newCar/${host.user.username}`, headers: host.headers, payload: newCarBody() }), 201);
    const data = jpegBytes();
    const body = multipart([{ name: 'registrationDocument', filename: 'reg.jpg', data, contentType: 'image/jpeg' }]);
    const uploaded = expectOk<Car>(
      await a.app.inject({ method: 'POST', url: `/api/car/uploadRegistrationDocument/${car.id}`, headers: { ...host.headers, ...body.headers }, payload: body.payload }),
    );
    const res = await b.app.inject({ method: 'GET', url: uploaded.registration_document!.url, headers: host.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    const stored = await a.db.selectFrom('cars').select('registration_storage_key').where('id', '=', car.id).executeTakeFirstOrThrow();
    expect(res.rawPayload).toEqual(await a.ctx.privateFiles.read(stored.registration_storage_key!));
    expectError(await b.app.inject({ method: 'GET', url: uploaded.registration_document!.url, headers: stranger.headers }), 404);
  });

  it('serves a car photo uploaded through A from B, as an image cached for good; a removed photo leaves the bucket', async () => {
    const host = await createSignedInUser(a.app, a.ctx, { role: 'host', verification_status: 'verified' });
    const car = expectOk<Car>(
      await a.app.inject({ method: 'POST', url: `/api/car/newCar/${host.user.username}`, headers: host.headers, payload: newCarBody({ images: [pngDataUrl(), pngDataUrl()] }) }),
      201,
    );
    const [photo, second] = car.images as [string, string];
    expect(photo).toMatch(new RegExp(`^/uploads/cars/${car.id}/[0-9a-f]+\\.jpg$`));
    expect(await objectKeys(`public/cars/${car.id}/`)).toHaveLength(2);

    const res = await b.app.inject({ method: 'GET', url: photo });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Photos are stored as JPEG without metadata (decision 031): B serves exactly what A put in the bucket.
    const stored = (await a.ctx.publicFiles.read(photo.slice('/uploads/'.length)))!;
    expect(Number(res.headers['content-length'])).toBe(stored.length);
    expect(res.rawPayload).toEqual(stored);

    const head = await b.app.inject({ method: 'HEAD', url: photo });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/jpeg');
    expect(Number(head.headers['content-length'])).toBe(stored.length);
    expect(head.rawPayload).toHaveLength(0);

    const etag = res.headers.etag as string;
    expect(etag).toBeTruthy();
    const unchanged = await a.app.inject({ method: 'GET', url: photo, headers: { 'if-none-match': etag } });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.rawPayload).toHaveLength(0);

    // The owner drops the first photo through B: gone from the bucket, a 404 on A.
    expectOk(await b.app.inject({ method: 'PUT', url: `/api/car/updateCar/${car.id}`, headers: host.headers, payload: { images: [second] } }));
    expect(await objectKeys(`public/cars/${car.id}/`)).toEqual([`public${second.replace('/uploads', '')}`]);
    expect(expectError(await a.app.inject({ method: 'GET', url: photo }), 404, 'File not found')).toEqual({ success: false, message: 'File not found' });
  });

  it('answers a missing or malformed photo path with a 404 JSON answer, never the web app', async () => {
    for (const app of [a.app, b.app]) {
      for (const url of ['/uploads/cars/nope.webp', '/uploads/cars/x/missing.png', '/uploads/', '/uploads/cars/a%20b.png', '/uploads/..%2Fprivate%2Fx.pdf']) {
        const res = await app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toMatch(/^application\/json/);
        expect(res.body, url).not.toContain('<div id="root">');
        expect(res.json(), url).toEqual({ success: false, message: 'File not found' });
      }
      // The app's own pages still answer with the app.
      expect((await app.inject({ method: 'GET', url: '/cars' })).body).toBe(INDEX_HTML);
    }
  });

  it('never serves a private document at a public address', async () => {
    const owner = await createSignedInUser(a.app, a.ctx);
    expectOk(await uploadDocument(a.app, owner.user.id, owner.headers, pdfBytes()));
    const row = await a.db.selectFrom('user_documents').selectAll().where('user_id', '=', owner.user.id).executeTakeFirstOrThrow();
    expectError(await b.app.inject({ method: 'GET', url: `/uploads/${row.storage_key}` }), 404, 'File not found');
  });

  it('puts the demo seed photos and documents in the bucket, where the other instance serves them', async () => {
    await seedDemo(a.ctx, a.db);
    const cars = await a.db
      .selectFrom('cars')
      .innerJoin('users', 'users.id', 'cars.owner_id')
      .select(['cars.images', 'cars.registration_storage_key'])
      .where('users.username', 'in', DEMO_USERS.map((u) => u.username))
      .execute();
    const photos = cars.flatMap((car) => car.images ?? []);
    expect(photos.length).toBeGreaterThan(10);
    const publicKeys = new Set(await objectKeys('public/cars/'));
    for (const url of photos) expect(publicKeys.has(`public${url.replace('/uploads', '')}`), url).toBe(true);
    const privateKeys = new Set(await objectKeys('private/'));
    for (const car of cars) if (car.registration_storage_key) expect(privateKeys.has(`private/${car.registration_storage_key}`)).toBe(true);

    const res = await b.app.inject({ method: 'GET', url: photos[0]! });
    expect(res.statusCode).toBe(200);
    // Photo-like JPEGs since issue 22 (decision 045).
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.rawPayload.subarray(0, 3).toString('hex')).toBe('ffd8ff');
  });
});
