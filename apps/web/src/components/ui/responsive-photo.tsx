// A car photo in the size it is drawn (issue 22, decision 045): a <picture> offering AVIF, then
// WebP, then JPEG in every width the photo was stored in, so the browser takes the smallest file
// that fills the box on its screen (`sizes` says how wide the box is). Width and height are set
// from the photo, so the page keeps its place while it loads (no layout shift); a photo not yet
// converted is its one JPEG. The largest photo of a page loads at once (`priority`), others lazily.
import { photoSources, pickVariant, plainCarPhoto, type CarPhoto } from '@karoo/shared';

export interface ResponsivePhotoProps {
  /** The photo, or a bare URL (a photo known only by its src). */
  photo: CarPhoto | string;
  alt: string;
  /** How wide the photo is drawn, as the `sizes` attribute says it: "(min-width: 1024px) 33vw, 100vw". */
  sizes: string;
  /** Above the fold (the page's largest paint): fetched at once and first. */
  priority?: boolean;
  className?: string;
  /** The intrinsic size when the photo does not say (not converted yet): only its proportions matter. */
  fallbackSize?: { width: number; height: number };
  onError?: () => void;
}

export function ResponsivePhoto({ photo, alt, sizes, priority = false, className, fallbackSize = { width: 1280, height: 800 }, onError }: ResponsivePhotoProps) {
  const value = typeof photo === 'string' ? plainCarPhoto(photo) : photo;
  const sources = photoSources(value);
  return (
    <picture className="contents">
      {sources.avif ? <source type="image/avif" srcSet={sources.avif} sizes={sizes} /> : null}
      {sources.webp ? <source type="image/webp" srcSet={sources.webp} sizes={sizes} /> : null}
      <img
        src={pickFallback(value)}
        srcSet={sources.jpeg || undefined}
        sizes={sources.jpeg ? sizes : undefined}
        alt={alt}
        width={value.width ?? fallbackSize.width}
        height={value.height ?? fallbackSize.height}
        loading={priority ? 'eager' : 'lazy'}
        fetchPriority={priority ? 'high' : undefined}
        decoding={priority ? 'auto' : 'async'}
        className={className}
        onError={onError}
      />
    </picture>
  );
}

/**
 * The `src` for a browser that reads no srcset: a mid-size JPEG when there is one (a card does not
 * need the 2 560 px original), else the photo itself.
 */
function pickFallback(photo: CarPhoto): string {
  return pickVariant(photo, 720)?.jpeg ?? photo.src;
}

/** `sizes` for the layouts that show car photos, from their CSS (Tailwind breakpoints: sm 640, md 768, lg 1024, xl 1280). */
export const PHOTO_SIZES = {
  /**
   * The detail page's main photo beside its thumbnails: 2/3 of the 1 216 px content box from lg; below,
   * the screen's width less the page's 1 rem margins (a 412 px phone at 1.75x then takes the 720, not the 1 280).
   */
  galleryMain: '(min-width: 1280px) 804px, (min-width: 1024px) 66vw, calc(100vw - 2rem)',
  /** The detail page's only photo: the whole content box. */
  gallerySingle: '(min-width: 1280px) 1216px, calc(100vw - 2rem)',
  /** A thumbnail: a quarter of the row on a phone, 2 columns of the side third from lg. */
  galleryThumb: '(min-width: 1024px) 200px, 25vw',
  /** A host's fleet card: 1, 2 or 3 columns. */
  fleetCard: '(min-width: 1280px) 400px, (min-width: 768px) 50vw, 100vw',
  /** A booking card's small photo. */
  bookingThumb: '160px',
} as const;
