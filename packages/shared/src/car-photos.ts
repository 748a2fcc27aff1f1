// A car photo in several widths and formats (issue 22, docs/decisions/045-photo-sizes.md). Every
// uploaded photo is stored as one full JPEG (at most 2 560 px on its long side, the URL in the
// car's `images`) and, once converted, in each width of CAR_PHOTO_WIDTHS narrower than the photo
// (and at its own width when that is at most 1 280), each as JPEG, WebP and AVIF. A photo not
// converted yet (stored before, or uploaded seconds ago) has no variants: it is shown from `src`.
// No schemas here (the photo's is cars.ts's): the public pages draw photos without loading zod.
import type { CarPhoto, CarPhotoVariant } from './cars';

/**
 * The widths photos are made in (decision 045): a browse card on a phone is 358 CSS px wide (390
 * less its margins), so 360 at 1x and 720 at 2x; 1 280 for the gallery and for 2x desktop cards.
 */
export const CAR_PHOTO_WIDTHS = [360, 720, 1280] as const;

export type CarPhotoFormat = 'jpeg' | 'webp' | 'avif';

/** A `srcset` of one format: `"/a-w360.avif 360w, /a-w720.avif 720w"`; empty when there are no variants. */
export function photoSrcSet(photo: Pick<CarPhoto, 'variants'>, format: CarPhotoFormat): string {
  return photo.variants.map((v) => `${v[format]} ${v.width}w`).join(', ');
}

/** What a `<picture>` needs: a srcset per format (empty strings without variants) and the fallback `src`. */
export function photoSources(photo: CarPhoto): { avif: string; webp: string; jpeg: string; src: string } {
  return { avif: photoSrcSet(photo, 'avif'), webp: photoSrcSet(photo, 'webp'), jpeg: photoSrcSet(photo, 'jpeg'), src: photo.src };
}

/**
 * The smallest variant at least `cssWidth × dpr` pixels wide (the widest when none is), or null
 * without variants: for places that take one URL (an og:image, a map marker's thumbnail).
 */
export function pickVariant(photo: Pick<CarPhoto, 'variants'>, minWidth: number): CarPhotoVariant | null {
  if (photo.variants.length === 0) return null;
  return photo.variants.find((v) => v.width >= minWidth) ?? photo.variants[photo.variants.length - 1]!;
}

/** A photo known only by its URL (not converted, or from a client that sent URLs alone). */
export function plainCarPhoto(src: string): CarPhoto {
  return { src, width: null, height: null, variants: [] };
}
