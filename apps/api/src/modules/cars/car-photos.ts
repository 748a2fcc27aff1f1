// Car photos arrive as data URLs (the wizard reads files into them, adding the file's name as a
// `name` parameter so refusals can say which file) or as the URLs of photos the car already has.
// New ones are decoded, checked and re-encoded by lib/images.ts (JPEG, PNG or WebP in; 10 MB and
// 50 megapixels at most each; 10 photos at most), written to the public store, and answered with
// their /uploads/ URLs.
import { randomBytes } from 'node:crypto';
import { MAX_CAR_PHOTO_BYTES, MAX_CAR_PHOTOS } from '@karoo/shared';
import type { AppContext } from '../../context';
import { AppError, badRequest } from '../../lib/app-error';
import { prepareImage, quoteFileName } from '../../lib/images';
import type { StoredPhotoVariants } from '../../db/schema';
import { variantKeys } from '../../lib/photo-variants';
import { publicKeyOf, publicUrl } from '../../lib/public-files';

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w-]+=[\w.%!'()*~-]+)*);base64,/i;
const NOT_A_DATA_URL = 'Photos must be base64 data URLs of image files.';

type PlannedPhoto = { kind: 'keep'; url: string } | { kind: 'new'; key: string; data: Buffer };

/** `Photo 2 ("fake.jpg")`, or `Photo 2` when the data URL carries no name. */
function photoLabel(index: number, parameters: string): string {
  const encoded = /;name=([^;]*)/i.exec(parameters)?.[1];
  let name: string | undefined;
  try {
    name = encoded ? quoteFileName(decodeURIComponent(encoded)) : undefined;
  } catch {
    name = undefined; // a name that is not valid percent-encoding is left out of the message
  }
  return name ? `Photo ${index + 1} (${name})` : `Photo ${index + 1}`;
}

function decodeDataUrl(value: string, index: number): { data: Buffer; label: string } {
  const match = DATA_URL.exec(value);
  if (!match) throw badRequest(NOT_A_DATA_URL, { images: NOT_A_DATA_URL });
  const label = photoLabel(index, match[2] ?? '');
  const tooLarge = () => {
    const message = `${label} is larger than 10MB: each photo must be smaller than 10MB.`;
    return new AppError(413, message, { images: message });
  };
  // Base64 is 4/3 of the bytes; refuse oversize photos before decoding them.
  if (((value.length - match[0].length) * 3) / 4 > MAX_CAR_PHOTO_BYTES + 4) throw tooLarge();
  const data = Buffer.from(value.slice(match[0].length), 'base64');
  if (data.length > MAX_CAR_PHOTO_BYTES) throw tooLarge();
  return { data, label };
}

/**
 * Checks a car's new photo list and prepares what to write: new photos are decoded, checked and
 * re-encoded (lib/images.ts); nothing is written yet, so a refused request leaves no files behind.
 */
export async function planCarPhotos(carId: string, images: string[], current: string[]): Promise<PlannedPhoto[]> {
  const list = images.map((s) => s.trim()).filter(Boolean);
  if (list.length > MAX_CAR_PHOTOS) {
    throw badRequest(`You can add at most ${MAX_CAR_PHOTOS} photos.`, { images: `You can add at most ${MAX_CAR_PHOTOS} photos.` });
  }
  const ownPrefix = publicUrl(`cars/${carId}/`);
  // Every photo is checked for its form before any is decoded, so a bad URL is refused at once.
  const checked = list.map((value, index) => {
    if (value.startsWith('data:')) return { kind: 'new' as const, ...decodeDataUrl(value, index) };
    if (current.includes(value) || value.startsWith(ownPrefix)) return { kind: 'keep' as const, url: value };
    throw badRequest('Photos must be uploaded images or photos this car already has.', {
      images: 'Photos must be uploaded images or photos this car already has.',
    });
  });
  const planned: PlannedPhoto[] = [];
  for (const photo of checked) {
    if (photo.kind === 'keep') {
      planned.push(photo);
      continue;
    }
    // One at a time: the picture queue would run them one by one anyway, and a refusal stops the rest.
    const image = await prepareImage({ data: photo.data, label: photo.label, field: 'images' }, 'car_photo');
    planned.push({ kind: 'new', key: `cars/${carId}/${randomBytes(12).toString('hex')}.${image.ext}`, data: image.data });
  }
  return planned;
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

/** Removes stored photos that are no longer used, with their widths and formats (best effort). */
export async function removeCarPhotos(ctx: AppContext, urls: string[], variants?: StoredPhotoVariants | null): Promise<void> {
  const store = ctx.publicFiles;
  for (const url of urls) {
    const key = publicKeyOf(url);
    if (!key) continue;
    for (const file of [key, ...variantKeys(key, variants?.[key])]) await store.remove(file).catch(() => undefined);
  }
}
