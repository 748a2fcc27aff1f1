// Uploaded pictures are decoded, limited and re-encoded before they are stored (issue 18;
// docs/decisions/031-image-uploads.md): a decompression bomb is refused as a car photo, an
// identity document and a registration document; a phone photo keeps no EXIF (no GPS) and is
// stored upright and resized; a text file named fake.jpg is a 400 naming the file.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { MAX_IMAGE_PIXELS, type Car, type Documents } from '@karoo/shared';
import { IMAGE_CONCURRENCY, IMAGES_BUSY, imageQueueStats, MAX_WAITING_IMAGES, prepareImage } from '../src/lib/images';
import { publicKeyOf } from '../src/lib/public-files';
import {
  createSignedInUser,
  createTestApp,
  decompressionBombPng,
  documentUpload,
  exifTags,
  expectError,
  expectOk,
  multipart,
  phonePhoto,
  pngBytes,
  type TestApp,
} from './helpers';
import { createTestCar, newCarBody } from './helpers/vehicles';

let t: TestApp;
let bomb: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  bomb = decompressionBombPng();
});
afterAll(async () => {
  await t?.close();
});

/** A data URL as the wizard sends it: the file's name as a `name` parameter. */
const dataUrl = (data: Buffer, mime: string, name?: string) =>
  `data:${mime}${name ? `;name=${encodeURIComponent(name)}` : ''};base64,${data.toString('base64')}`;

async function newCar(images: string[]) {
  const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  const res = await t.app.inject({ method: 'POST', url: `/api/car/newCar/${host.user.username}`, headers: host.headers, payload: newCarBody({ images }) });
  return { host, res };
}

async function storedPhoto(url: string): Promise<Buffer> {
  const data = await t.ctx.publicFiles.read(publicKeyOf(url)!);
  expect(data).not.toBeNull();
  return data!;
}

const uploadDocument = (userId: string, headers: Record<string, string>, data: Buffer, filename: string, mime = 'image/png') => {
  const body = documentUpload('id_document', data, filename, mime);
  return t.app.inject({ method: 'POST', url: `/api/user/${userId}/upload-document`, headers: { ...headers, ...body.headers }, payload: body.payload });
};

const uploadRegistration = (car: string, headers: Record<string, string>, data: Buffer, filename: string) => {
  const body = multipart([{ name: 'registrationDocument', filename, data, contentType: 'image/png' }]);
  return t.app.inject({ method: 'POST', url: `/api/car/uploadRegistrationDocument/${car}`, headers: { ...headers, ...body.headers }, payload: body.payload });
};

describe('a decompression bomb (a 110 KB PNG declaring 30 000 x 30 000 pixels)', () => {
  it('is a small, valid PNG that declares 900 megapixels', async () => {
    expect(bomb.length).toBeLessThan(200_000);
    const meta = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 30_000, height: 30_000 });
    expect(30_000 * 30_000).toBeGreaterThan(MAX_IMAGE_PIXELS);
  });

  it('is refused as a car photo with a 413 naming the file and the limit; no car, no file', async () => {
    const { host, res } = await newCar([dataUrl(pngBytes(), 'image/png', 'front.png'), dataUrl(bomb, 'image/png', 'bomb.png')]);
    const error = expectError(res, 413);
    expect(error.message).toBe(
      'Photo 2 ("bomb.png") is 30 000 × 30 000 pixels (900 megapixels): pictures can be at most 50 megapixels, and at most 16 384 pixels on a side.',
    );
    expect(error.errors?.images).toBe(error.message);
    expect(await t.db.selectFrom('cars').select('id').where('owner_id', '=', host.user.id).execute()).toEqual([]);
  });

  it('is refused as an identity document with a 413 naming the file and the limit; nothing stored', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    const error = expectError(await uploadDocument(user.id, headers, bomb, 'id-scan.png'), 413);
    expect(error.message).toMatch(/^"id-scan\.png" is 30 000 × 30 000 pixels \(900 megapixels\): pictures can be at most 50 megapixels/);
    expect(await t.db.selectFrom('user_documents').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
  });

  it('is refused as a registration document with a 413 naming the limit', async () => {
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host.user);
    expectError(await uploadRegistration(car.car_username, host.headers, bomb, 'natis.png'), 413, /^"natis\.png" is 30 000 × 30 000 pixels .*50 megapixels/);
  });
});

describe('phone photos', () => {
  it('a 40-megapixel photo with GPS and a turned camera is stored upright, 2 560 px on its long side, with no metadata', async () => {
    const photo = await phonePhoto(7744, 5184, 6);
    const before = await sharp(photo).metadata();
    expect(before).toMatchObject({ width: 7744, height: 5184, orientation: 6 });
    expect(exifTags(before.exif!)).toContain('8825'); // the GPS position is there to leak

    const { res } = await newCar([dataUrl(photo, 'image/jpeg', 'IMG_2041.jpg')]);
    const car = expectOk<Car>(res, 201);
    expect(car.images[0]).toMatch(/\.jpg$/);
    const stored = await sharp(await storedPhoto(car.images[0]!)).metadata();
    // Turned by its orientation (the long side is now the height), then shrunk.
    expect(stored).toMatchObject({ format: 'jpeg', width: 1714, height: 2560 });
    expect(stored.exif).toBeUndefined();
    expect(stored.orientation).toBeUndefined();
    expect(stored.xmp).toBeUndefined();
    expect(stored.iptc).toBeUndefined();
  }, 120_000); // Decoding and re-encoding 40 megapixels: seconds when quiet, past 20 s on a loaded machine under faketime (a ceiling for a hang).

  it('a large 7 000 x 5 000 photo is accepted and stored resized; a PNG photo is stored as a JPEG', async () => {
    const large = await sharp({ create: { width: 7000, height: 5000, channels: 3, background: '#a33' } }).jpeg().toBuffer();
    const { res } = await newCar([dataUrl(large, 'image/jpeg'), dataUrl(pngBytes(), 'image/png')]);
    const car = expectOk<Car>(res, 201);
    expect(await sharp(await storedPhoto(car.images[0]!)).metadata()).toMatchObject({ format: 'jpeg', width: 2560, height: 1829 });
    expect(await sharp(await storedPhoto(car.images[1]!)).metadata()).toMatchObject({ format: 'jpeg', width: 1, height: 1 });
  });

  it('an identity document photographed with GPS is stored upright with no metadata, legible at 4 000 px', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    const photo = await phonePhoto(6000, 4000, 6);
    expect(exifTags((await sharp(photo).metadata()).exif!)).toContain('8825');
    const answer = expectOk<{ documents: Documents }>(await uploadDocument(user.id, headers, photo, 'id.jpg', 'image/jpeg'));
    expect(answer.documents.id_document).toMatchObject({ mime_type: 'image/jpeg', originalName: 'id.jpg' });

    const row = await t.db.selectFrom('user_documents').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    const stored = (await t.ctx.privateFiles.read(row.storage_key))!;
    expect(row.size_bytes).toBe(stored.length);
    const meta = await sharp(stored).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 2667, height: 4000 });
    expect(meta.exif).toBeUndefined();
  });

  it('a PNG document stays a PNG, without its text chunks', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    const scan = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#fff' } })
      .withMetadata({ orientation: 1 })
      .withExif({ IFD0: { Artist: 'Home scanner' } })
      .png()
      .toBuffer();
    expect((await sharp(scan).metadata()).exif).toBeDefined();
    expectOk(await uploadDocument(user.id, headers, scan, 'licence.png'));
    const row = await t.db.selectFrom('user_documents').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row.storage_key).toMatch(/\.png$/);
    const meta = await sharp((await t.ctx.privateFiles.read(row.storage_key))!).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 1200, height: 800 });
    expect(meta.exif).toBeUndefined();
  });
});

describe('a file that is not the picture it claims to be', () => {
  const text = Buffer.from('Just some notes, saved with the wrong name.\n');

  it('is a 400 naming the file as a car photo (with the wizard\u2019s name, and by position without one)', async () => {
    const named = expectError((await newCar([dataUrl(pngBytes(), 'image/png', 'front.png'), dataUrl(text, 'image/jpeg', 'fake.jpg')])).res, 400);
    expect(named.message).toBe('Photo 2 ("fake.jpg") is not a JPEG, PNG or WebP image.');
    expect(named.errors?.images).toBe(named.message);
    expectError((await newCar([dataUrl(text, 'image/jpeg')])).res, 400, 'Photo 1 is not a JPEG, PNG or WebP image.');
  });

  it('is a 400 naming the file as an identity document and as a registration document', async () => {
    const { user, headers } = await createSignedInUser(t.app, t.ctx);
    expectError(await uploadDocument(user.id, headers, text, 'fake.jpg', 'image/jpeg'), 400, '"fake.jpg" is not a PDF, JPEG or PNG file.');
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host.user);
    expectError(await uploadRegistration(car.car_username, host.headers, text, 'fake.jpg'), 400, '"fake.jpg" is not a PDF, JPEG or PNG file.');
  });

  it('a JPEG cut short after its header is a 400 naming the file, not a 500', async () => {
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg().toBuffer();
    const cut = photo.subarray(0, Math.floor(photo.length / 3));
    expectError((await newCar([dataUrl(cut, 'image/jpeg', 'cut.jpg')])).res, 400, /^Photo 1 \("cut\.jpg"\) could not be read as a picture/);
  });
});

describe('the picture queue', () => {
  it('decodes at most IMAGE_CONCURRENCY pictures at once, and turns a burst beyond the queue away with 503', async () => {
    const source = (i: number) => ({ data: pngBytes(), label: `Photo ${i}`, field: 'images' });
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, imageQueueStats().running)), 1);
    const burst = Array.from({ length: IMAGE_CONCURRENCY + MAX_WAITING_IMAGES + 2 }, (_, i) => prepareImage(source(i), 'car_photo'));
    const results = await Promise.allSettled(burst);
    clearInterval(watch);
    const refused = results.filter((r) => r.status === 'rejected');
    expect(refused).toHaveLength(2);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toMatchObject({ status: 503, message: IMAGES_BUSY });
    expect(most).toBeLessThanOrEqual(IMAGE_CONCURRENCY);
    expect(imageQueueStats()).toMatchObject({ running: 0, waiting: 0 });
  });

  it('is reported in /metrics', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/karoo_image_jobs\{state="waiting"\} 0/);
    expect(res.body).toMatch(/karoo_image_jobs_total\{outcome="busy"\} 2/);
    expect(res.body).toMatch(/karoo_image_busy_seconds_total \d/);
  });
});
