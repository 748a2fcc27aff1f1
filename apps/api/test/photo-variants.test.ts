// Car photos in several widths and formats (issue 22, docs/decisions/045-photo-sizes.md): an
// uploaded photo (a phone JPEG with GPS in its EXIF and an ICC profile) is stored as one JPEG at
// once and converted by the 'photos.convert' job into 360, 720 and 1 280 px wide JPEG, WebP and
// AVIF files with no metadata; the car answers `photos` in the order of `images`, `variants: []`
// until then; photos stored before (another type, with EXIF) are found by the sweep and converted
// once; a photo that does not decode is recorded and left; a dropped photo takes its files along.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { Car, CarPhoto } from '@karoo/shared';
import { makePhotoVariants, variantWidths } from '../src/lib/images';
import { publicKeyOf, publicUrl } from '../src/lib/public-files';
import { carsWithUnconvertedPhotos, enqueueUnconvertedPhotos } from '../src/modules/cars/car-photos.job';
import { createSignedInUser, createTestApp, exifTags, expectOk, type TestApp } from './helpers';
import { createTestCar, newCarBody } from './helpers/vehicles';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const dataUrl = (data: Buffer, mime: string, name: string) => `data:${mime};name=${encodeURIComponent(name)};base64,${data.toString('base64')}`;

/** A phone photo: a gradient (so the encoders have something to encode), GPS in its EXIF, turned by its orientation, with a Display P3 profile. */
function gpsPhoto(width: number, height: number, format: 'jpeg' | 'png' = 'jpeg'): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="#2a6fb0"/><stop offset="1" stop-color="#e0a040"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 2}" cy="${height / 2}" r="${height / 4}" fill="#c22"/></svg>`;
  const image = sharp(Buffer.from(svg))
    .withIccProfile('p3')
    .withExif({
      IFD0: { Make: 'Karoo Phone', Model: 'Test 40' },
      IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 55/1 1/1', GPSLongitudeRef: 'E', GPSLongitude: '18/1 25/1 26/1' },
    })
    .withMetadata({ orientation: 6 });
  return format === 'jpeg' ? image.jpeg({ quality: 90 }).toBuffer() : image.png().toBuffer();
}

async function stored(url: string): Promise<Buffer> {
  const data = await t.ctx.publicFiles.read(publicKeyOf(url)!);
  expect(data, url).not.toBeNull();
  return data!;
}

/** The car as its owner sees it (a new car waits for verification: nobody else does). */
async function getCar(idOrUsername: string, headers: Record<string, string> = {}): Promise<Car> {
  return expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${idOrUsername}`, headers }));
}

/** Every variant file of a photo: the right format and size, and no metadata at all. */
async function expectCleanVariants(photo: CarPhoto, widths: number[]): Promise<void> {
  expect(photo.variants.map((v) => v.width)).toEqual(widths);
  for (const v of photo.variants) {
    for (const [format, url, expected] of [
      ['jpeg', v.jpeg, 'jpeg'],
      ['webp', v.webp, 'webp'],
      ['avif', v.avif, 'heif'],
    ] as const) {
      const meta = await sharp(await stored(url)).metadata();
      expect(meta.format, `${format} ${v.width}`).toBe(expected);
      if (format === 'avif') expect(meta.compression).toBe('av1');
      expect({ width: meta.width, height: meta.height }, url).toEqual({ width: v.width, height: v.height });
      expect(meta.exif, `${url} has EXIF`).toBeUndefined();
      expect(meta.icc, `${url} has an ICC profile`).toBeUndefined();
      expect(meta.xmp, `${url} has XMP`).toBeUndefined();
      expect(meta.iptc, `${url} has IPTC`).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
    }
  }
}

// Encoding AVIF is seconds of CPU per photo on a loaded 2-core machine: these tests get minutes.
describe('an uploaded phone photo', { timeout: 180_000 }, () => {
  it('is answered at once as its JPEG with variants: [], then the job makes 360, 720 and 1 280 px in JPEG, WebP and AVIF with no metadata', async () => {
    const photo = await gpsPhoto(3000, 2000);
    const before = await sharp(photo).metadata();
    expect(exifTags(before.exif!)).toContain('8825'); // the GPS position is there to leak
    expect(before.icc).toBeDefined();

    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const small = await gpsPhoto(900, 600);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/car/newCar/${host.user.username}`,
      headers: host.headers,
      payload: newCarBody({ images: [dataUrl(photo, 'image/jpeg', 'IMG_2041.jpg'), dataUrl(small, 'image/jpeg', 'small.jpg')] }),
    });
    const created = expectOk<Car>(res, 201);
    expect(created.photos).toEqual(created.images.map((src) => ({ src, width: null, height: null, variants: [] })));

    // The upload enqueued one conversion for the car.
    expect(await t.ctx.jobs.runDue('photos.convert')).toBe(1);
    const car = await getCar(created.id, host.headers);
    expect(car.images).toEqual(created.images);
    expect(car.photos.map((p) => p.src)).toEqual(car.images);

    // Upright (orientation 6 turns 3 000 x 2 000 into 2 000 x 3 000), then at most 2 560 px: 1 707 x 2 560.
    const [big, little] = car.photos as [CarPhoto, CarPhoto];
    expect(big).toMatchObject({ width: 1707, height: 2560 });
    await expectCleanVariants(big, [360, 720, 1280]);
    // Each keeps the photo's proportions (to a pixel of rounding).
    for (const v of big.variants) expect(Math.abs(v.height - (v.width * 2560) / 1707)).toBeLessThanOrEqual(1.5);
    // The full JPEG stays the src, not a variant: it is wider than 1 280.
    expect(big.variants.some((v) => v.jpeg === big.src)).toBe(false);

    // A photo no wider than 1 280 px is also a variant at its own width, where the JPEG is the photo itself.
    expect(little).toMatchObject({ width: 600, height: 900 });
    await expectCleanVariants(little, [360, 600]);
    expect(little.variants[1]!.jpeg).toBe(little.src);

    // Served with their types, cached for good.
    const avif = await t.app.inject({ method: 'GET', url: big.variants[1]!.avif });
    expect(avif.statusCode).toBe(200);
    expect(avif.headers['content-type']).toBe('image/avif');
    expect(avif.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ method: 'GET', url: big.variants[0]!.webp })).headers['content-type']).toBe('image/webp');

    // AVIF and WebP are smaller than the JPEG of the same width.
    const bytes = async (url: string) => (await stored(url)).length;
    expect(await bytes(big.variants[1]!.avif)).toBeLessThan(await bytes(big.variants[1]!.jpeg));
    expect(await bytes(big.variants[1]!.webp)).toBeLessThan(await bytes(big.variants[1]!.jpeg));

    // Nothing is left for the job to do: it runs again and converts nothing.
    expect(await carsWithUnconvertedPhotos(t.db, 1000)).not.toContain(car.id);

    // Dropping a photo removes its variants with it, and its entry.
    const edit = await t.app.inject({ method: 'PUT', url: `/api/car/updateCar/${car.id}`, headers: host.headers, payload: { images: [little.src] } });
    const edited = expectOk<Car>(edit);
    expect(edited.photos).toEqual([little]);
    for (const v of big.variants) {
      for (const url of [v.jpeg, v.webp, v.avif]) expect(await t.ctx.publicFiles.read(publicKeyOf(url)!), url).toBeNull();
    }
    const row = await t.db.selectFrom('cars').select('photo_variants').where('id', '=', car.id).executeTakeFirstOrThrow();
    expect(Object.keys(row.photo_variants)).toEqual([publicKeyOf(little.src)]);
  });
});

describe('photos stored before (the conversion job)', { timeout: 180_000 }, () => {
  it('finds an old photo without variants (a PNG with GPS, stored as it came), converts it once, and a second sweep finds nothing', async () => {
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host.user);
    const oldKey = `cars/${car.id}/old-photo.png`;
    await t.ctx.publicFiles.put(oldKey, await gpsPhoto(1600, 1200, 'png'));
    const brokenKey = `cars/${car.id}/broken.jpg`;
    await t.ctx.publicFiles.put(brokenKey, Buffer.from('not a picture at all, only text'));
    const images = [publicUrl(oldKey), publicUrl(brokenKey)];
    await t.db.updateTable('cars').set({ images: JSON.stringify(images) }).where('id', '=', car.id).execute();

    const before = await getCar(car.id);
    expect(before.photos).toEqual(images.map((src) => ({ src, width: null, height: null, variants: [] })));
    expect(await carsWithUnconvertedPhotos(t.db, 1000)).toContain(car.id);

    // The sweep gives the car one job, however often it runs (one per car: singletonKey on an exclusive queue).
    expect(await enqueueUnconvertedPhotos(t.ctx)).toBeGreaterThanOrEqual(1);
    expect(await enqueueUnconvertedPhotos(t.ctx)).toBe(0);
    expect(await t.ctx.jobs.runDue('photos.convert')).toBeGreaterThanOrEqual(1);

    const after = await getCar(car.id);
    const [old, broken] = after.photos as [CarPhoto, CarPhoto];
    // The old PNG keeps its URL (it is in images); it is 1 200 x 1 600 once upright.
    expect(old).toMatchObject({ src: images[0], width: 1200, height: 1600 });
    await expectCleanVariants(old, [360, 720, 1200]);
    // Not a PNG, so its full-width JPEG is a file of its own.
    expect(old.variants[2]!.jpeg).not.toBe(old.src);
    // A file that does not decode is recorded, answered honestly without variants, and not tried again.
    expect(broken).toEqual({ src: images[1], width: null, height: null, variants: [] });
    const row = await t.db.selectFrom('cars').select('photo_variants').where('id', '=', car.id).executeTakeFirstOrThrow();
    expect(row.photo_variants[brokenKey]).toEqual({ error: 'The photo could not be decoded.' });

    expect(await carsWithUnconvertedPhotos(t.db, 1000)).not.toContain(car.id);
    expect(await enqueueUnconvertedPhotos(t.ctx)).toBe(0);
    expect(await t.ctx.jobs.runDue('photos.convert')).toBe(0);
  });
});

describe('variant widths', { timeout: 180_000 }, () => {
  it('are each standard width below the photo, and the photo itself when it is at most 1 280 wide', () => {
    expect(variantWidths(2560)).toEqual([360, 720, 1280]);
    expect(variantWidths(1280)).toEqual([360, 720, 1280]);
    expect(variantWidths(1000)).toEqual([360, 720, 1000]);
    expect(variantWidths(200)).toEqual([200]);
  });

  it('a 2 560 px photo: timings of each format, for decision 045', async () => {
    const photo = await sharp(await gpsPhoto(2560, 1707)).jpeg({ quality: 82, mozjpeg: true }).toBuffer();
    const started = performance.now();
    const made = await makePhotoVariants(photo, true);
    const seconds = (performance.now() - started) / 1000;
    expect(made.variants.map((v) => v.width)).toEqual([360, 720, 1280]);
    // Generous: a loaded 2-core machine. The figures themselves are in the decision record.
    expect(seconds).toBeLessThan(60);
  });
});
