// The photos of a car on its card: previous/next arrows (on hover, always on touch screens) and
// dots. The first photo is the main one; a car without photos shows a neutral placeholder.
import { clsx } from 'clsx';
import { CarFront, ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';

export interface ImageCarouselProps {
  images: string[];
  alt: string;
  className?: string;
  /** Load the photo at once, first in line (the first cards of a list), instead of lazily. */
  priority?: boolean;
}

export function ImageCarousel({ images, alt, className, priority = false }: ImageCarouselProps) {
  const [index, setIndex] = useState(0);
  const count = images.length;
  const current = count ? images[Math.min(index, count - 1)] : undefined;

  const go = (step: number) => (event: React.MouseEvent) => {
    event.preventDefault();
    event.stopPropagation();
    setIndex((i) => (i + step + count) % count);
  };

  return (
    <div className={clsx('group/carousel relative overflow-hidden bg-stone-100', className)}>
      {current ? (
        <img
          src={current}
          alt={count > 1 ? `${alt}, photo ${index + 1} of ${count}` : alt}
          width={800}
          height={600}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
          className="size-full object-cover"
        />
      ) : (
        <div className="flex size-full items-center justify-center text-stone-300" role="img" aria-label={`${alt}, no photo yet`}>
          <CarFront className="size-12" aria-hidden="true" />
        </div>
      )}
      {count > 1 ? (
        <>
          <button
            type="button"
            onClick={go(-1)}
            aria-label="Previous photo"
            className="absolute top-1/2 left-2 flex size-8 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-stone-800 opacity-100 shadow-sm transition hover:bg-white focus-visible:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 sm:opacity-0 sm:group-hover/carousel:opacity-100"
          >
            <ChevronLeft className="size-4" aria-hidden="true" />
          </button>
          <button
            type="button"
            onClick={go(1)}
            aria-label="Next photo"
            className="absolute top-1/2 right-2 flex size-8 -translate-y-1/2 items-center justify-center rounded-full bg-white/90 text-stone-800 opacity-100 shadow-sm transition hover:bg-white focus-visible:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 sm:opacity-0 sm:group-hover/carousel:opacity-100"
          >
            <ChevronRight className="size-4" aria-hidden="true" />
          </button>
          <div className="pointer-events-none absolute inset-x-0 bottom-2 flex justify-center gap-1.5" aria-hidden="true">
            {images.slice(0, 8).map((image, i) => (
              <span key={image} className={clsx('size-1.5 rounded-full transition', i === index ? 'bg-white' : 'bg-white/55')} />
            ))}
          </div>
        </>
      ) : null}
    </div>
  );
}
