import { describe, expect, it } from 'vitest';
import { detectFileType, imageSizeProblem, MAX_IMAGE_PIXELS, readImageSize } from './images';

const hex = (s: string) => Uint8Array.from(s.match(/../g)!.map((h) => parseInt(h, 16)));
const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const concat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

// Real files made with sharp (libvips): a 1 x 1 PNG, an 8 x 8 JPEG and an 8 x 8 lossy WebP.
const png = hex(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000970485973000003e8000003e801b57b526b' +
    '0000000d49444154089963f8ffff7f0300097c037e6cec10c90000000049454e44ae426082',
);
const jpeg = hex(
  'ffd8ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d7179' +
    '7064785c656763ffdb0043011112121815182f1a1a2f634238426363636363636363636363636363636363636363636363636363636363636363636363636363' +
    '636363636363636363636363ffc00011080008000803012200021101031101ffc4001500010100000000000000000000000000000004ffc40014100100000000' +
    '000000000000000000000000ffc40014010100000000000000000000000000000005ffc40014110100000000000000000000000000000000ffda000c03010002' +
    '110311003f00ac0144dfffd9',
);
const webp = hex('524946463800000057454250565038202c000000d001009d012a0800080001402625a00274ba01f80003b000fee7e4bff9d83625daf1cfff967cfe1b38700000');

describe('detectFileType', () => {
  it('judges by the first bytes', () => {
    expect(detectFileType(png)).toEqual({ mime: 'image/png', ext: 'png' });
    expect(detectFileType(jpeg)).toEqual({ mime: 'image/jpeg', ext: 'jpg' });
    expect(detectFileType(webp)).toEqual({ mime: 'image/webp', ext: 'webp' });
    expect(detectFileType(ascii('%PDF-1.4\n'))).toEqual({ mime: 'application/pdf', ext: 'pdf' });
    expect(detectFileType(ascii('Just some notes, saved as fake.jpg'))).toBeNull();
    expect(detectFileType(png.slice(0, 4))).toBeNull();
  });
});

describe('readImageSize', () => {
  it('reads the size a PNG, a JPEG and a lossy WebP declare', () => {
    expect(readImageSize(png)).toEqual({ width: 1, height: 1 });
    expect(readImageSize(jpeg)).toEqual({ width: 8, height: 8 });
    expect(readImageSize(webp)).toEqual({ width: 8, height: 8 });
  });

  it('reads a PNG declaring 30 000 x 30 000 from its header alone', () => {
    const header = png.slice(0, 33);
    new DataView(header.buffer).setUint32(16, 30_000);
    new DataView(header.buffer).setUint32(20, 30_000);
    expect(readImageSize(header)).toEqual({ width: 30_000, height: 30_000 });
  });

  it('reads lossless and extended WebP headers', () => {
    // VP8L: signature 0x2f, then width-1 and height-1 in 14 bits each (here 400 x 300).
    const bits = 399 | (299 << 14);
    const lossless = concat(ascii('RIFF'), new Uint8Array(4), ascii('WEBPVP8L'), new Uint8Array(4), hex('2f'), Uint8Array.of(bits & 255, (bits >> 8) & 255, (bits >> 16) & 255, (bits >>> 24) & 255));
    expect(readImageSize(lossless)).toEqual({ width: 400, height: 300 });
    // VP8X: the canvas width-1 and height-1 in 24 bits each (here 20 000 x 12 000).
    const extended = concat(ascii('RIFF'), new Uint8Array(4), ascii('WEBPVP8X'), new Uint8Array(8), Uint8Array.of(0x1f, 0x4e, 0x00, 0xdf, 0x2e, 0x00));
    expect(readImageSize(extended)).toEqual({ width: 20_000, height: 12_000 });
  });

  it('answers null for a header that is missing or cut short, never throwing', () => {
    expect(readImageSize(ascii('not a picture'))).toBeNull();
    for (let n = 0; n < jpeg.length; n += 7) expect(() => readImageSize(jpeg.slice(0, n))).not.toThrow();
    expect(readImageSize(jpeg.slice(0, 140))).toBeNull(); // cut before its frame header
    expect(readImageSize(png.slice(0, 20))).toBeNull();
  });
});

describe('imageSizeProblem', () => {
  it('takes a 40-megapixel phone photo and refuses a bomb, naming the limit', () => {
    expect(imageSizeProblem(7744, 5184)).toBeNull();
    expect(imageSizeProblem(7071, 7071)).toBeNull();
    expect(7071 * 7071).toBeLessThanOrEqual(MAX_IMAGE_PIXELS);
    expect(imageSizeProblem(30_000, 30_000)).toBe(
      'is 30 000 × 30 000 pixels (900 megapixels): pictures can be at most 50 megapixels, and at most 16 384 pixels on a side',
    );
    expect(imageSizeProblem(20_000, 100)).toMatch(/^is 20 000 × 100 pixels \(2 megapixels\): .*16 384 pixels on a side$/);
  });
});
