// Uploaded pictures (car photos, and identity or registration documents that are images) go
// through one function before they are stored (docs/decisions/031-image-uploads.md): decoded by a
// real decoder (sharp, over libvips), refused above a size limit (a small file can declare
// 900 megapixels that every browser showing it must decode), turned upright by their EXIF
// orientation, shrunk to a sane longest edge and re-encoded, so no metadata survives (a phone
// photo's EXIF holds the GPS position where it was taken: for a car, often its host's home).
//
// Decoding is CPU-heavy and runs on libuv's pool of four threads, which the file system and
// compression use too, so pictures are processed one at a time per process (two at most on a
// larger machine), each on one libvips thread, and a short queue waits behind them.
import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { CAR_PHOTO_WIDTHS, describeTypes, detectFileType, imageSizeProblem, MAX_IMAGE_PIXELS, readImageSize } from '@karoo/shared';
import { AppError } from './app-error';

export type ImagePurpose = 'car_photo' | 'document';

/** What each kind of picture is stored as. */
const OUTPUT: Record<ImagePurpose, { maxEdge: number; types: readonly string[] }> = {
  // Photos are shown at most some 1 300 CSS px wide; 2 560 covers that on a 2x screen.
  car_photo: { maxEdge: 2560, types: ['image/jpeg', 'image/png', 'image/webp'] },
  // A document must stay legible: 4 000 px on the long side is an A4 page at about 340 dpi.
  document: { maxEdge: 4000, types: ['image/jpeg', 'image/png'] },
};

/** A picture ready to store: its bytes, type and size once re-encoded. */
export interface PreparedImage {
  data: Buffer;
  mime: 'image/jpeg' | 'image/png';
  ext: 'jpg' | 'png';
  width: number;
  height: number;
}

export interface ImageSource {
  data: Buffer;
  /** How messages name the file: `"fake.jpg"`, or `Photo 2 ("fake.jpg")`. */
  label: string;
  /** The request field a refusal is reported on. */
  field: string;
}

/** A pathological picture must not hold the queue: libvips stops it after this long. */
const PROCESS_TIMEOUT_SECONDS = 30;
/** Pictures waiting beyond this answer 503: a burst cannot queue unbounded memory. */
export const MAX_WAITING_IMAGES = 40;

// Our decodes are all different files: libvips' operation cache would only hold memory.
sharp.cache(false);
// One libvips thread per picture: the picture queue, not libvips, decides how many cores we use.
sharp.concurrency(1);

/** Pictures processed at once: one on a 2-core machine (the other core serves requests), two at most. */
export const IMAGE_CONCURRENCY = Math.max(1, Math.min(2, availableParallelism() - 1));

interface QueueStats {
  running: number;
  waiting: number;
  /** Pictures stored, refused (bad or too big) and turned away because the queue was full. */
  outcomes: { stored: number; refused: number; busy: number };
  /** Seconds spent decoding and encoding, summed: its rate is the CPU share pictures take. */
  busySeconds: number;
}

const stats: QueueStats = { running: 0, waiting: 0, outcomes: { stored: 0, refused: 0, busy: 0 }, busySeconds: 0 };
const waiters: (() => void)[] = [];

/** The picture queue's state, for /metrics. */
export function imageQueueStats(): Readonly<QueueStats> {
  return stats;
}

export const IMAGES_BUSY = 'Too many pictures are being processed right now. Please try again in a minute.';

async function inQueue<T>(work: () => Promise<T>): Promise<T> {
  if (stats.running >= IMAGE_CONCURRENCY) {
    if (stats.waiting >= MAX_WAITING_IMAGES) {
      stats.outcomes.busy += 1;
      throw new AppError(503, IMAGES_BUSY);
    }
    stats.waiting += 1;
    await new Promise<void>((resolve) => waiters.push(resolve));
    stats.waiting -= 1;
  }
  stats.running += 1;
  const started = performance.now();
  try {
    return await work();
  } finally {
    stats.busySeconds += (performance.now() - started) / 1000;
    stats.running -= 1;
    waiters.shift()?.();
  }
}

function refuse(status: number, source: ImageSource, message: string): AppError {
  stats.outcomes.refused += 1;
  return new AppError(status, message, { [source.field]: message });
}

/**
 * Decodes, checks and re-encodes an uploaded picture; the one place an uploaded picture becomes
 * what is stored. Refusals name the file: 400 when it is not the picture it claims to be, 415
 * for a picture of a type not taken here, 413 above MAX_IMAGE_PIXELS or MAX_IMAGE_SIDE.
 *
 * Car photos are stored as JPEG (transparency flattened on white); documents keep their type
 * (JPEG or PNG: a scan's text stays sharp in PNG). A later change can return several widths and
 * formats of a car photo from here without touching its callers' checks.
 */
export async function prepareImage(source: ImageSource, purpose: ImagePurpose): Promise<PreparedImage> {
  const rule = OUTPUT[purpose];
  const type = detectFileType(source.data);
  if (!type) throw refuse(400, source, `${source.label} is not a ${describeTypes(rule.types)} image.`);
  if (!rule.types.includes(type.mime)) {
    throw refuse(415, source, `${source.label} is a ${describeTypes([type.mime])} file: only ${describeTypes(rule.types)} images are allowed.`);
  }
  // The declared size first, from the header alone, so a bomb is refused before any decoding.
  const declared = readImageSize(source.data) ?? (await readDeclaredSize(source));
  const tooBig = imageSizeProblem(declared.width, declared.height);
  if (tooBig) throw refuse(413, source, `${source.label} ${tooBig}.`);

  return inQueue(async () => {
    try {
      const pipeline = sharp(source.data, { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' })
        .timeout({ seconds: PROCESS_TIMEOUT_SECONDS })
        .autoOrient()
        .resize(rule.maxEdge, rule.maxEdge, { fit: 'inside', withoutEnlargement: true });
      const asPng = purpose === 'document' && type.mime === 'image/png';
      const encoded = asPng
        ? pipeline.png({ compressionLevel: 6 })
        : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: purpose === 'document' ? 88 : 82, mozjpeg: true });
      // sharp writes no metadata unless asked (no keepExif, keepIcc or withMetadata here): the
      // pixels are converted to sRGB and EXIF, XMP, IPTC and ICC are left behind.
      const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
      stats.outcomes.stored += 1;
      return asPng
        ? { data, mime: 'image/png', ext: 'png', width: info.width, height: info.height }
        : { data, mime: 'image/jpeg', ext: 'jpg', width: info.width, height: info.height };
    } catch {
      throw refuse(400, source, `${source.label} could not be read as a picture: the file is damaged or is not really a ${describeTypes([type.mime])} image.`);
    }
  });
}

/** The size from libvips' header reader, for headers our own reader does not know; a header it cannot read is a 400. */
async function readDeclaredSize(source: ImageSource): Promise<{ width: number; height: number }> {
  try {
    const { width, height } = await sharp(source.data, { limitInputPixels: false }).metadata();
    if (width && height) return { width, height };
  } catch {
    // Falls through to the refusal below.
  }
  throw refuse(400, source, `${source.label} could not be read as a picture: the file is damaged.`);
}

/** How a refusal names an uploaded file: its name in quotes, without characters that would confuse the message. */
export function quoteFileName(name: string | undefined): string | undefined {
  const clean = [...(name ?? '')]
    .filter((c) => c >= ' ' && c !== '\u007f' && c !== '"')
    .join('')
    .trim()
    .slice(0, 120);
  return clean ? `"${clean}"` : undefined;
}

// ---- Variants of a car photo (issue 22, docs/decisions/045-photo-sizes.md) ----

/**
 * How each variant is encoded. AVIF is by far the slowest: at libaom's default effort (4) a
 * 1 280 px photo took about 19 s here under load, at effort 2 about 3 s for some 25 % more bytes
 * than effort 4 (decision 045 has the figures), so effort 2.
 */
export const VARIANT_ENCODING = {
  jpeg: { quality: 80, mozjpeg: true },
  webp: { quality: 75, effort: 4 },
  avif: { quality: 50, effort: 2 },
} as const;

/** One width of a photo, in the three formats; `jpeg` is null at the photo's own width (the stored photo is that JPEG). */
export interface PhotoVariant {
  width: number;
  height: number;
  jpeg: Buffer | null;
  webp: Buffer;
  avif: Buffer;
}

export interface PhotoVariants {
  /** The stored photo's size, upright. */
  width: number;
  height: number;
  variants: PhotoVariant[];
}

/**
 * The widths a photo is made in: each of CAR_PHOTO_WIDTHS narrower than the photo, and the photo's
 * own width when it is at most the widest of them (a 2 560 px photo is served at most 1 280 wide
 * in WebP and AVIF; its full JPEG stays the `src`).
 */
export function variantWidths(fullWidth: number): number[] {
  const widest = CAR_PHOTO_WIDTHS[CAR_PHOTO_WIDTHS.length - 1]!;
  const widths: number[] = CAR_PHOTO_WIDTHS.filter((w) => w < fullWidth);
  if (fullWidth <= widest) widths.push(fullWidth);
  return widths;
}

const decodeOptions = { limitInputPixels: MAX_IMAGE_PIXELS, failOn: 'error' } as const;

/** A stored photo libvips cannot decode (damaged, or not a picture): trying again will not help. */
export class UnreadablePicture extends Error {}

async function decoding<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // libvips stopped a slow picture (a loaded machine): that may pass next time.
    if (error instanceof Error && /timeout/i.test(error.message)) throw error;
    throw new UnreadablePicture(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Makes the variants of a stored car photo (our own JPEG, or a photo stored before decision 031 in
 * whatever type it came): each width is decoded once from the photo (JPEG shrinks while it decodes),
 * then encoded as JPEG, WebP and AVIF. sharp writes no metadata unless asked, so none of them keeps
 * EXIF, XMP, IPTC or an ICC profile (pixels are converted to sRGB). Each width is one turn of the
 * picture queue, so an upload waits for one width at most, never for a whole photo.
 */
export async function makePhotoVariants(photo: Buffer, isJpeg: boolean): Promise<PhotoVariants> {
  const upright = await inQueue(() =>
    decoding(async () => {
      // The size once turned upright by its EXIF orientation, as autoOrient() does below.
      const { autoOrient } = await sharp(photo, decodeOptions).metadata();
      if (!autoOrient.width || !autoOrient.height) throw new Error('The picture has no size.');
      return { width: autoOrient.width, height: autoOrient.height };
    }),
  );
  const variants: PhotoVariant[] = [];
  for (const width of variantWidths(upright.width)) {
    variants.push(
      await inQueue(() => decoding(async () => {
        const pixels = await sharp(photo, decodeOptions)
          .timeout({ seconds: PROCESS_TIMEOUT_SECONDS })
          .autoOrient()
          .resize({ width, withoutEnlargement: true })
          .flatten({ background: '#ffffff' })
          .toColourspace('srgb')
          .raw()
          .toBuffer({ resolveWithObject: true });
        const raw = { raw: { width: pixels.info.width, height: pixels.info.height, channels: pixels.info.channels } };
        const encode = () => sharp(pixels.data, raw).timeout({ seconds: PROCESS_TIMEOUT_SECONDS });
        const own = width === upright.width && isJpeg;
        // One after another: one libvips thread per picture (decision 031).
        const jpeg = own ? null : await encode().jpeg(VARIANT_ENCODING.jpeg).toBuffer();
        const webp = await encode().webp(VARIANT_ENCODING.webp).toBuffer();
        const avif = await encode().avif(VARIANT_ENCODING.avif).toBuffer();
        return { width: pixels.info.width, height: pixels.info.height, jpeg, webp, avif };
      })),
    );
  }
  return { ...upright, variants };
}
