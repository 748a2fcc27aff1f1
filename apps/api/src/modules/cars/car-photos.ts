// Car photos arrive as data URLs (the wizard reads files into them) or as the URLs of photos the
// car already has. New ones are checked by content (PNG, JPEG or WEBP; 10 MB each; 10 at most),
// written to the public store, and answered with their /uploads/ URLs.
import { randomBytes } from 'node:crypto';
import { MAX_CAR_PHOTO_BYTES, MAX_CAR_PHOTOS } from '@karoo/shared';
import type { AppContext } from '../../context';
import { AppError, badRequest } from '../../lib/app-error';
import { detectFileType } from '../../lib/file-types';
import { publicKeyOf, publicUrl } from '../../lib/public-files';

const PHOTO_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);
const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w-]+=[\w.-]+)*);base64,/i;

type PlannedPhoto = { kind: 'keep'; url: string } | { kind: 'new'; key: string; data: Buffer };

function decodeDataUrl(value: string): Buffer {
  const match = DATA_URL.exec(value);
  if (!match) throw badRequest('Photos must be base64 data URLs of image files.', { images: 'Photos must be base64 data URLs of image files.' });
  // Base64 is 4/3 of the bytes; refuse oversize photos before decoding them.
  if (((value.length - match[0].length) * 3) / 4 > MAX_CAR_PHOTO_BYTES + 4) throw new AppError(413, 'Each photo must be smaller than 10MB');
  const data = Buffer.from(value.slice(match[0].length), 'base64');
  if (data.length > MAX_CAR_PHOTO_BYTES) throw new AppError(413, 'Each photo must be smaller than 10MB');
  return data;
}

/**
 * Checks a car's new photo list and works out what to write; nothing is written yet, so a
 * refused request leaves no files behind.
 */
export function planCarPhotos(carId: string, images: string[], current: string[]): PlannedPhoto[] {
  const list = images.map((s) => s.trim()).filter(Boolean);
  if (list.length > MAX_CAR_PHOTOS) {
    throw badRequest(`You can add at most ${MAX_CAR_PHOTOS} photos.`, { images: `You can add at most ${MAX_CAR_PHOTOS} photos.` });
  }
  const ownPrefix = publicUrl(`cars/${carId}/`);
  return list.map((value): PlannedPhoto => {
    if (value.startsWith('data:')) {
      const data = decodeDataUrl(value);
      const type = detectFileType(data);
      if (!type || !PHOTO_TYPES.has(type.mime)) throw new AppError(415, 'Only image files (JPEG, PNG or WEBP) can be used as photos.');
      return { kind: 'new', key: `cars/${carId}/${randomBytes(12).toString('hex')}.${type.ext}`, data };
    }
    if (current.includes(value) || value.startsWith(ownPrefix)) return { kind: 'keep', url: value };
    throw badRequest('Photos must be uploaded images or photos this car already has.', {
      images: 'Photos must be uploaded images or photos this car already has.',
    });
  });
}

/** Writes the planned photos and answers their URLs, in order. */
export async function writeCarPhotos(ctx: AppContext, planned: PlannedPhoto[]): Promise<string[]> {
  const store = ctx.publicFiles;
  const urls: string[] = [];
  for (const photo of planned) {
    if (photo.kind === 'keep') {
      urls.push(photo.url);
    } else {
      await store.put(photo.key, photo.data);
      urls.push(publicUrl(photo.key));
    }
  }
  return urls;
}

/** Removes stored photos that are no longer used (best effort). */
export async function removeCarPhotos(ctx: AppContext, urls: string[]): Promise<void> {
  const store = ctx.publicFiles;
  for (const url of urls) {
    const key = publicKeyOf(url);
    if (key) await store.remove(key).catch(() => undefined);
  }
}
