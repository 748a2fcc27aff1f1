// The names of a car photo's variants (docs/decisions/045-photo-sizes.md), and the photo as the API
// answers it. A photo stored as `cars/<car>/<name>.jpg` has, once converted, `<name>-w<width>.jpg`,
// `.webp` and `.avif` for each width; at the full width the JPEG is the photo itself. Only the
// sizes are stored (cars.photo_variants, migration 0025): the names follow from the key.
import type { CarPhoto, CarPhotoFormat } from '@karoo/shared';
import type { StoredPhotoSizes, StoredPhotoVariants } from '../db/schema';
import { publicKeyOf, publicUrl } from './public-files';

const EXTENSIONS: Record<CarPhotoFormat, string> = { jpeg: 'jpg', webp: 'webp', avif: 'avif' };

/** The storage key of one variant of the photo stored at `key`, `fullWidth` pixels wide. */
export function variantKey(key: string, width: number, format: CarPhotoFormat, fullWidth: number): string {
  if (format === 'jpeg' && width === fullWidth && /\.jpe?g$/i.test(key)) return key;
  return `${key.replace(/\.[a-z0-9]+$/i, '')}-w${width}.${EXTENSIONS[format]}`;
}

/** Every file a converted photo has besides itself (to remove them with it). */
export function variantKeys(key: string, sizes: StoredPhotoSizes | undefined): string[] {
  if (!sizes || 'error' in sizes) return [];
  const keys = sizes.variants.flatMap(([w]) => (['jpeg', 'webp', 'avif'] as const).map((f) => variantKey(key, w, f, sizes.width)));
  return keys.filter((k) => k !== key);
}

/** One photo URL of a car as the API answers it: `variants: []` until it is converted. */
export function toCarPhoto(url: string, stored: StoredPhotoVariants | null | undefined): CarPhoto {
  const key = publicKeyOf(url);
  const sizes = key ? stored?.[key] : undefined;
  if (!key || !sizes || 'error' in sizes) return { src: url, width: null, height: null, variants: [] };
  return {
    src: url,
    width: sizes.width,
    height: sizes.height,
    variants: sizes.variants.map(([width, height]) => ({
      width,
      height,
      jpeg: publicUrl(variantKey(key, width, 'jpeg', sizes.width)),
      webp: publicUrl(variantKey(key, width, 'webp', sizes.width)),
      avif: publicUrl(variantKey(key, width, 'avif', sizes.width)),
    })),
  };
}

/** A car's photos, in the order of its `images`. */
export function toCarPhotos(images: readonly string[], stored: StoredPhotoVariants | null | undefined): CarPhoto[] {
  return images.map((url) => toCarPhoto(url, stored));
}
