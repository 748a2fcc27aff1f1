// What an uploaded file is, judged by its bytes, and how big a picture may be
// (docs/decisions/031-image-uploads.md). The server reads the type here before it hands a picture
// to its decoder; the web app reads the type and the declared size here the moment a file is
// chosen, so it can say which file it refused, and why, before anything is sent.

/**
 * The most pixels a picture may have. A 40-megapixel phone photo passes; a "decompression bomb"
 * (a small file declaring 30 000 x 30 000 pixels) does not: every browser showing it would have
 * to decode 900 megapixels, some 3.6 GB of memory.
 */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** The longest side a picture may have (phone panoramas stay under it, and under MAX_IMAGE_PIXELS). */
export const MAX_IMAGE_SIDE = 16_384;

export type DetectedMime = 'application/pdf' | 'image/png' | 'image/jpeg' | 'image/webp';
export type DetectedType = { mime: DetectedMime; ext: 'pdf' | 'png' | 'jpg' | 'webp' };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function hasAscii(bytes: Uint8Array, offset: number, text: string): boolean {
  if (bytes.length < offset + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[offset + i] !== text.charCodeAt(i)) return false;
  return true;
}

/** The file's type from its first bytes (magic numbers), never from its name or claimed type. */
export function detectFileType(bytes: Uint8Array): DetectedType | null {
  if (hasAscii(bytes, 0, '%PDF-')) return { mime: 'application/pdf', ext: 'pdf' };
  if (bytes.length >= 8 && PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return { mime: 'image/png', ext: 'png' };
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { mime: 'image/jpeg', ext: 'jpg' };
  if (hasAscii(bytes, 0, 'RIFF') && hasAscii(bytes, 8, 'WEBP')) return { mime: 'image/webp', ext: 'webp' };
  return null;
}

/** Names of the accepted types for messages: "JPEG, PNG or WebP". */
export function describeTypes(mimes: readonly string[]): string {
  const names = mimes.map((mime) => ({ 'application/pdf': 'PDF', 'image/png': 'PNG', 'image/jpeg': 'JPEG', 'image/webp': 'WebP' })[mime] ?? mime);
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;

/** A JPEG's size from its frame header (SOF0-SOF15 but DHT, JPG and DAC), skipping the segments before it. */
function jpegSize(b: Uint8Array): { width: number; height: number } | null {
  let i = 2;
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2; // markers without a length
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return null; // scan data or the end before any frame header
    const length = u16be(b, i + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return i + 9 <= b.length ? { height: u16be(b, i + 5), width: u16be(b, i + 7) } : null;
    i += 2 + length;
  }
  return null;
}

/**
 * The size a picture declares in its header, without decoding it: PNG (IHDR), JPEG (the frame
 * header) and WebP (VP8, VP8L or VP8X). Null when the header is missing or cut short. A declared
 * size is what a decoder will allocate, so it is enough to refuse a bomb; only decoding proves
 * the rest of the file is a picture.
 */
export function readImageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const type = detectFileType(bytes);
  if (type?.mime === 'image/png') {
    return bytes.length >= 24 && hasAscii(bytes, 12, 'IHDR') ? { width: u32be(bytes, 16), height: u32be(bytes, 20) } : null;
  }
  if (type?.mime === 'image/jpeg') return jpegSize(bytes);
  if (type?.mime === 'image/webp') {
    if (hasAscii(bytes, 12, 'VP8 ') && bytes.length >= 30 && bytes[23] === 0x9d && bytes[24] === 0x01 && bytes[25] === 0x2a) {
      return { width: u16le(bytes, 26) & 0x3fff, height: u16le(bytes, 28) & 0x3fff };
    }
    if (hasAscii(bytes, 12, 'VP8L') && bytes.length >= 25 && bytes[20] === 0x2f) {
      const bits = (bytes[21]! | (bytes[22]! << 8) | (bytes[23]! << 16) | (bytes[24]! << 24)) >>> 0;
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    if (hasAscii(bytes, 12, 'VP8X') && bytes.length >= 30) return { width: u24le(bytes, 24) + 1, height: u24le(bytes, 27) + 1 };
  }
  return null;
}

const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/**
 * Why a picture of this size is refused, or null when it may be stored. Written to follow the
 * file's name: "bomb.png is 30 000 x 30 000 pixels (900 megapixels): ...".
 */
export function imageSizeProblem(width: number, height: number): string | null {
  if (width * height <= MAX_IMAGE_PIXELS && width <= MAX_IMAGE_SIDE && height <= MAX_IMAGE_SIDE) return null;
  const megapixels = Math.round((width * height) / 1_000_000);
  return (
    `is ${grouped(width)} × ${grouped(height)} pixels (${megapixels} megapixels): pictures can be at most ` +
    `${MAX_IMAGE_PIXELS / 1_000_000} megapixels, and at most ${grouped(MAX_IMAGE_SIDE)} pixels on a side`
  );
}
