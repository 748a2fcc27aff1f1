// ResponsivePhoto and the srcset helpers (issue 22, decision 045): a converted photo offers AVIF,
// then WebP, then JPEG in every width, with the layout's `sizes`, its own width and height (no
// layout shift), lazy unless it is the page's largest paint; a photo not converted is its one JPEG.
import { photoSrcSet, pickVariant, plainCarPhoto, type CarPhoto } from '@karoo/shared';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Gallery } from './gallery';
import { PHOTO_SIZES, ResponsivePhoto } from './responsive-photo';

const photo: CarPhoto = {
  src: '/uploads/cars/c1/a.jpg',
  width: 2560,
  height: 1600,
  variants: [360, 720, 1280].map((width) => ({
    width,
    height: width * 0.625,
    jpeg: `/uploads/cars/c1/a-w${width}.jpg`,
    webp: `/uploads/cars/c1/a-w${width}.webp`,
    avif: `/uploads/cars/c1/a-w${width}.avif`,
  })),
};

describe('srcset helpers', () => {
  it('list every width of one format, narrowest first', () => {
    expect(photoSrcSet(photo, 'avif')).toBe('/uploads/cars/c1/a-w360.avif 360w, /uploads/cars/c1/a-w720.avif 720w, /uploads/cars/c1/a-w1280.avif 1280w');
    expect(photoSrcSet(photo, 'jpeg')).toBe('/uploads/cars/c1/a-w360.jpg 360w, /uploads/cars/c1/a-w720.jpg 720w, /uploads/cars/c1/a-w1280.jpg 1280w');
    expect(photoSrcSet(plainCarPhoto('/x.jpg'), 'webp')).toBe('');
  });

  it('pick the narrowest variant at least as wide as asked (a 358 px phone card at 2x: the 720)', () => {
    expect(pickVariant(photo, 300)?.width).toBe(360);
    expect(pickVariant(photo, 716)?.width).toBe(720);
    expect(pickVariant(photo, 780)?.width).toBe(1280);
    expect(pickVariant(photo, 5000)?.width).toBe(1280);
    expect(pickVariant(plainCarPhoto('/x.jpg'), 300)).toBeNull();
  });
});

describe('ResponsivePhoto', () => {
  it('offers AVIF, then WebP, then JPEG with the sizes, the photo own size, lazily', () => {
    const { container } = render(<ResponsivePhoto photo={photo} alt="2021 Toyota Corolla" sizes={PHOTO_SIZES.fleetCard} />);
    const sources = container.querySelectorAll('picture > source');
    expect([...sources].map((s) => s.getAttribute('type'))).toEqual(['image/avif', 'image/webp']);
    expect(sources[0]!.getAttribute('srcset')).toBe(photoSrcSet(photo, 'avif'));
    expect(sources[1]!.getAttribute('srcset')).toBe(photoSrcSet(photo, 'webp'));
    for (const s of sources) expect(s.getAttribute('sizes')).toBe(PHOTO_SIZES.fleetCard);
    const img = screen.getByRole('img', { name: '2021 Toyota Corolla' });
    expect(img.getAttribute('srcset')).toBe(photoSrcSet(photo, 'jpeg'));
    expect(img.getAttribute('sizes')).toBe(PHOTO_SIZES.fleetCard);
    // A browser without srcset gets the 720 JPEG, not the 2 560 px original.
    expect(img.getAttribute('src')).toBe('/uploads/cars/c1/a-w720.jpg');
    expect(img.getAttribute('width')).toBe('2560');
    expect(img.getAttribute('height')).toBe('1600');
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('decoding')).toBe('async');
  });

  it('is fetched at once and first when it is the page largest paint', () => {
    render(<ResponsivePhoto photo={photo} alt="Main" sizes="100vw" priority />);
    const img = screen.getByRole('img', { name: 'Main' });
    expect(img.getAttribute('loading')).toBe('eager');
    expect(img.getAttribute('fetchpriority')).toBe('high');
  });

  it('a photo not converted yet is its one JPEG, with proportions so the box keeps its place', () => {
    const { container } = render(<ResponsivePhoto photo="/uploads/cars/c1/old.jpg" alt="Old" sizes="100vw" />);
    expect(container.querySelectorAll('source')).toHaveLength(0);
    const img = screen.getByRole('img', { name: 'Old' });
    expect(img.getAttribute('src')).toBe('/uploads/cars/c1/old.jpg');
    expect(img.hasAttribute('srcset')).toBe(false);
    expect(img.getAttribute('width')).toBe('1280');
    expect(img.getAttribute('height')).toBe('800');
  });
});

describe('the car gallery', () => {
  it('draws the main photo at once with the main sizes and the thumbnails lazily with theirs', () => {
    const second = { ...photo, src: '/uploads/cars/c1/b.jpg', variants: photo.variants.map((v) => ({ ...v, avif: v.avif.replace('a-', 'b-') })) };
    const { container } = render(<Gallery images={[photo.src, second.src]} photos={[photo, second]} alt="Corolla" />);
    const main = screen.getByRole('img', { name: 'Corolla, photo 1 of 2' });
    expect(main.getAttribute('loading')).toBe('eager');
    expect(main.getAttribute('sizes')).toBe(PHOTO_SIZES.galleryMain);
    const thumbs = [...container.querySelectorAll('button[aria-label^="Photo "] img')];
    expect(thumbs).toHaveLength(2);
    for (const thumb of thumbs) {
      expect(thumb.getAttribute('loading')).toBe('lazy');
      expect(thumb.getAttribute('sizes')).toBe(PHOTO_SIZES.galleryThumb);
    }
    expect(container.querySelector('button[aria-label="Photo 2"] source[type="image/avif"]')?.getAttribute('srcset')).toContain('b-w360.avif 360w');
  });
});
