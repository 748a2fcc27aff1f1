// The demo cars' photos (issue 22): photo-like scenes (car-scenes.ts), one per body type and
// angle, rendered by sharp with the paint in light grey, then painted in each car's colour by
// multiplying the body (the scene's mask, black where painted) by the colour: a composite and a
// JPEG encode, some tens of milliseconds, where rendering a scene takes ten times that. Both the
// scenes and the painted photos are cached by content: in this process, and on disk in
// KAROO_DEMO_PHOTO_CACHE (default: the system's temporary folder), where the next seed on this
// machine finds them. The widths and formats are then made by the 'photos.convert' job, as for
// any photo (decision 045).
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { colourHex } from '@karoo/shared';
import type { PhotoAngle } from './car-illustrations';
import { carScene } from './car-scenes';

/** Changes whenever the rendering (not the scene) changes, so old cached files are not reused. */
const RENDERING = 'v1-jpeg-q80';

const memo = new Map<string, Promise<Buffer>>();

function cacheDir(): string {
  return process.env.KAROO_DEMO_PHOTO_CACHE ?? path.join(tmpdir(), 'karoo-demo-photos');
}

/** `make()`'s bytes, from this process's memory, the disk cache, or made (and kept) now. */
function cached(name: string, make: () => Promise<Buffer>): Promise<Buffer> {
  let bytes = memo.get(name);
  if (!bytes) {
    bytes = (async () => {
      const file = path.join(cacheDir(), name);
      const found = await readFile(file).catch(() => null);
      if (found) return found;
      const made = await make();
      // Written beside and renamed: a seed running at the same time never reads half a file.
      try {
        await mkdir(path.dirname(file), { recursive: true });
        const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
        await writeFile(partial, made);
        await rename(partial, file);
      } catch {
        // A cache that cannot be written only means making it again next time.
      }
      return made;
    })();
    memo.set(name, bytes);
    bytes.catch(() => memo.delete(name));
  }
  return bytes;
}

const hashOf = (...parts: string[]) => createHash('sha256').update(RENDERING).update(parts.join('\0')).digest('hex').slice(0, 32);

/** A scene's two layers as raw-free PNG (the photo in grey paint, and the paint's mask). */
function layer(carType: string, angle: PhotoAngle, kind: 'photo' | 'mask'): Promise<Buffer> {
  const svg = carScene(carType, angle, kind);
  return cached(`${hashOf(svg)}.png`, () => sharp(Buffer.from(svg)).png({ compressionLevel: 1 }).toBuffer());
}

/** One demo photo of a car as JPEG bytes (1 280 x 800), its body in the car's colour. */
export function demoCarPhoto(car: { car_color: string; car_type: string }, angle: PhotoAngle): Promise<Buffer> {
  const colour = colourHex(car.car_color);
  const key = hashOf(carScene(car.car_type, angle, 'photo'), carScene(car.car_type, angle, 'mask'), colour);
  return cached(`${key}.jpg`, async () => {
    const [photo, mask] = await Promise.all([layer(car.car_type, angle, 'photo'), layer(car.car_type, angle, 'mask')]);
    const rgb = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
    // White where the mask is white (no change when multiplied), the colour where it is black.
    const paint = await sharp(mask)
      .removeAlpha()
      .linear(rgb.map((c) => 1 - c / 255), rgb)
      .png({ compressionLevel: 1 })
      .toBuffer();
    return sharp(photo).composite([{ input: paint, blend: 'multiply' }]).jpeg({ quality: 80 }).toBuffer();
  });
}
