// Car photos are converted into their widths and formats on the job queue (issue 22,
// docs/decisions/045-photo-sizes.md). The request that adds photos stores each as one JPEG (as
// before) and enqueues 'photos.convert' for its car in the same transaction; the job makes the
// variants, writes them beside the photo and records their sizes in cars.photo_variants, one photo
// at a time (so a job stopped half-way resumes with the photos left). 'photos.sweep', every ten
// minutes from one instance, gives a job to every car whose photos are not all converted: photos
// stored before this change, and any a job missed. One job per car at a time on every instance
// (singletonKey = the car's id on an exclusive queue); a job that runs twice finds nothing left.
import { z } from 'zod';
import { sql } from 'kysely';
import type { AppContext } from '../../context';
import type { Db } from '../../db/connection';
import type { StoredPhotoSizes } from '../../db/schema';
import { inTransaction } from '../../events/domain-events';
import { NO_PAYLOAD, type JobDefinition, type JobTransaction } from '../../jobs/queue';
import { makePhotoVariants, UnreadablePicture } from '../../lib/images';
import { variantKey } from '../../lib/photo-variants';
import { PUBLIC_URL_PREFIX, publicKeyOf, publicUrl } from '../../lib/public-files';

declare module '../../jobs/queue' {
  interface JobPayloads {
    'photos.convert': { carId: string };
    'photos.sweep': Record<string, never>;
  }
}

/** Every ten minutes, from one instance per tick. */
export const PHOTO_SWEEP_CRON = '*/10 * * * *';
/** Cars given a job per sweep; the rest wait for the next tick. */
export const PHOTO_SWEEP_BATCH = 200;

/** Asks for the car's photos to be converted, in the transaction that stored them. */
export function enqueuePhotoConversion(ctx: AppContext, tx: JobTransaction, carId: string): Promise<string | null> {
  return ctx.jobs.enqueue(tx, 'photos.convert', { carId }, { singletonKey: carId });
}

/** Drops the entries of photos the car no longer has (in the transaction that drops them). */
export async function forgetPhotoVariants(db: Db, carId: string, urls: string[]): Promise<void> {
  const keys = urls.map(publicKeyOf).filter((key): key is string => key !== null);
  if (keys.length === 0) return;
  await sql`UPDATE cars SET photo_variants = photo_variants - ${keys}::text[] WHERE id = ${carId}`.execute(db);
}

/** Whether a photo URL of ours has no entry yet, in SQL: the sweep's test. */
const unconverted = sql`EXISTS (
  SELECT 1 FROM jsonb_array_elements_text(c.images) AS u(url)
  WHERE u.url LIKE ${`${PUBLIC_URL_PREFIX}%`} AND (c.photo_variants -> substr(u.url, ${PUBLIC_URL_PREFIX.length + 1})) IS NULL
)`;

/** Asks for a sweep now (the demo seed: every car's photos at once, from one job). */
export function enqueuePhotoSweep(ctx: AppContext, tx: JobTransaction): Promise<string | null> {
  return ctx.jobs.enqueue(tx, 'photos.sweep', {}, { singletonKey: 'photos.sweep' });
}

/** Cars (not deleted) with at least one photo not converted, oldest first. */
export async function carsWithUnconvertedPhotos(db: Db, limit: number): Promise<string[]> {
  const rows = await sql<{ id: string }>`SELECT c.id FROM cars c WHERE c.deleted_at IS NULL AND ${unconverted} ORDER BY c.created_at, c.id LIMIT ${limit}`.execute(db);
  return rows.rows.map((r) => r.id);
}

/** Gives each car with photos left to convert a job (one per car: the others are dropped). */
export async function enqueueUnconvertedPhotos(ctx: AppContext, limit = PHOTO_SWEEP_BATCH): Promise<number> {
  const ids = await carsWithUnconvertedPhotos(ctx.db, limit);
  let enqueued = 0;
  for (const carId of ids) {
    if (await inTransaction(ctx, (tx) => enqueuePhotoConversion(ctx, tx, carId))) enqueued += 1;
  }
  return enqueued;
}

async function loadCarPhotos(db: Db, carId: string) {
  return db.selectFrom('cars').select(['images', 'photo_variants']).where('id', '=', carId).where('deleted_at', 'is', null).executeTakeFirst();
}

/**
 * Converts one photo: reads it from the public store, makes its variants, writes them and records
 * their sizes, if the photo still belongs to the car (otherwise the files just written go again).
 */
async function convertPhoto(ctx: AppContext, carId: string, url: string, key: string): Promise<StoredPhotoSizes> {
  const store = ctx.publicFiles;
  const data = await store.read(key);
  let sizes: StoredPhotoSizes;
  const written: string[] = [];
  if (!data) {
    sizes = { error: 'The photo file is missing from the store.' };
  } else {
    try {
      const made = await makePhotoVariants(data, /\.jpe?g$/i.test(key));
      for (const v of made.variants) {
        for (const format of ['jpeg', 'webp', 'avif'] as const) {
          const bytes = v[format];
          if (!bytes) continue;
          const target = variantKey(key, v.width, format, made.width);
          await store.put(target, bytes);
          written.push(target);
        }
      }
      sizes = { width: made.width, height: made.height, variants: made.variants.map((v) => [v.width, v.height]) };
    } catch (error) {
      // A file libvips cannot decode will not decode next time either: recorded, so no job tries again.
      if (!(error instanceof UnreadablePicture)) throw error;
      sizes = { error: 'The photo could not be decoded.' };
    }
  }
  const updated = await sql`
    UPDATE cars SET photo_variants = photo_variants || jsonb_build_object(${key}::text, ${JSON.stringify(sizes)}::jsonb)
    WHERE id = ${carId} AND images @> jsonb_build_array(${url}::text)`.execute(ctx.db);
  if (Number(updated.numAffectedRows ?? 0) === 0) {
    for (const target of written) await store.remove(target).catch(() => undefined);
  }
  return sizes;
}

/** Converts every photo of the car not converted yet; answers how many it converted. */
export async function convertCarPhotos(ctx: AppContext, carId: string): Promise<number> {
  let converted = 0;
  // Photos added while this runs (their own job was dropped: this one holds the key) are found by
  // the next pass; a pass that finds none ends it.
  for (;;) {
    const car = await loadCarPhotos(ctx.db, carId);
    if (!car) return converted;
    const stored = car.photo_variants ?? {};
    const todo = (car.images ?? []).flatMap((url) => {
      const key = publicKeyOf(url);
      return key && !stored[key] && publicUrl(key) === url ? [{ url, key }] : [];
    });
    if (todo.length === 0) return converted;
    for (const { url, key } of todo) {
      await convertPhoto(ctx, carId, url, key);
      converted += 1;
    }
  }
}

export const photoConvertJob = (ctx: AppContext): JobDefinition<'photos.convert'> => ({
  name: 'photos.convert',
  payload: z.object({ carId: z.uuid() }),
  // A busy picture queue (uploads) or an unreachable store: try again a little later.
  retry: { limit: 5, delaySeconds: 60, maxDelaySeconds: 3600 },
  // Ten photos of a few seconds each, on a loaded machine.
  timeoutSeconds: 15 * 60,
  policy: 'exclusive',
  pollSeconds: 10,
  run: async (job) => {
    const count = await convertCarPhotos(ctx, job.data.carId);
    if (count > 0) job.log.info({ carId: job.data.carId, photos: count }, 'car photos converted');
  },
});

export const photoSweepJob = (ctx: AppContext): JobDefinition<'photos.sweep'> => ({
  name: 'photos.sweep',
  payload: NO_PAYLOAD,
  cron: PHOTO_SWEEP_CRON,
  retry: { limit: 1, delaySeconds: 60, maxDelaySeconds: 120 },
  timeoutSeconds: 5 * 60,
  pollSeconds: 30,
  run: async (job) => {
    const count = await enqueueUnconvertedPhotos(ctx);
    if (count > 0) job.log.info({ cars: count }, 'cars queued for photo conversion');
  },
});
