// A car's photos, on the car detail page and in the admin Cars tab's gallery: the main photo with
// previous/next arrows and dots, and up to 4 thumbnails that jump to a photo. Each is drawn in the
// width it is shown (ResponsivePhoto: AVIF, WebP or JPEG from the photo's `srcset`).
import type { CarPhoto } from '@karoo/shared';
import { clsx } from 'clsx';
import { CarFront, ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { PHOTO_SIZES, ResponsivePhoto } from './responsive-photo';

export const MAX_THUMBNAILS = 4;

/** `photos` (the car answer's, with their sizes) when known, else the bare `images` URLs. */
export function Gallery({ images, photos, alt }: { images: string[]; photos?: CarPhoto[]; alt: string }) {
  const [index, setIndex] = useState(0);
  const shown: (CarPhoto | string)[] = photos?.length === images.length ? photos : images;
  const count = images.length;
  if (count === 0) {
    return (
      <div className="flex aspect-[16/9] items-center justify-center rounded-2xl bg-stone-100 text-stone-300" role="img" aria-label={`${alt}, no photos yet`}>
        <CarFront className="size-16" aria-hidden="true" />
      </div>
    );
  }
  const go = (step: number) => setIndex((i) => (i + step + count) % count);
  return (
    <section aria-label="Photos" className={clsx('grid gap-3', count > 1 && 'lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]')}>
      <div className="relative aspect-[16/10] overflow-hidden rounded-2xl bg-stone-100 lg:aspect-auto lg:h-[440px]">
        {/* The first photo is the page's largest paint: fetched at once; the others when chosen. */}
        <ResponsivePhoto
          key={images[index]}
          photo={shown[index]!}
          alt={`${alt}, photo ${index + 1} of ${count}`}
          sizes={count > 1 ? PHOTO_SIZES.galleryMain : PHOTO_SIZES.gallerySingle}
          priority={index === 0}
          className="size-full object-cover"
        />
        {count > 1 ? (
          <>
            <button
              type="button"
              onClick={() => go(-1)}
              aria-label="Previous photo"
              className="absolute top-1/2 left-3 flex size-10 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-stone-800 shadow-md hover:bg-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              <ChevronLeft className="size-5" aria-hidden="true" />
            </button>
            <button
              type="button"
              onClick={() => go(1)}
              aria-label="Next photo"
              className="absolute top-1/2 right-3 flex size-10 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-stone-800 shadow-md hover:bg-white focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              <ChevronRight className="size-5" aria-hidden="true" />
            </button>
            <div className="absolute inset-x-0 bottom-1.5 flex justify-center">
              {images.map((image, i) => (
                // A 24 px target (WCAG 2.5.8) around the small dot it shows.
                <button
                  key={image}
                  type="button"
                  onClick={() => setIndex(i)}
                  aria-label={`Show photo ${i + 1}`}
                  aria-current={i === index || undefined}
                  className="group/dot flex h-6 min-w-6 items-center justify-center rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
                >
                  <span className={clsx('h-2 rounded-full transition', i === index ? 'w-5 bg-white' : 'w-2 bg-white/60 group-hover/dot:bg-white/80')} />
                </button>
              ))}
            </div>
          </>
        ) : null}
      </div>
      {count > 1 ? (
        <div className={clsx('grid grid-cols-4 gap-3 lg:h-[440px]', count > 2 ? 'lg:grid-cols-2 lg:grid-rows-2' : 'lg:grid-cols-1 lg:grid-rows-2')}>
          {shown.slice(0, MAX_THUMBNAILS).map((photo, i) => (
            <button
              key={images[i]}
              type="button"
              onClick={() => setIndex(i)}
              aria-label={`Photo ${i + 1}`}
              aria-pressed={i === index}
              className={clsx(
                'aspect-[4/3] overflow-hidden rounded-xl bg-stone-100 ring-offset-2 lg:aspect-auto transition focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500',
                i === index ? 'ring-2 ring-stone-900' : 'opacity-80 hover:opacity-100',
              )}
            >
              <ResponsivePhoto photo={photo} alt="" sizes={PHOTO_SIZES.galleryThumb} className="size-full object-cover" />
            </button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
