// Small files with the right magic bytes (types are judged by content), real pictures made with
// sharp (uploaded pictures are decoded: decision 031), and a hand-built multipart body for app.inject().
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { makePdf } from '../../src/db/seed/demo-files';

export const pdfBytes = (label = 'Test document'): Buffer => makePdf([label]);

/** A real 1 x 1 PNG, half-transparent white (made once with sharp: libpng reads it without a warning). */
export const pngBytes = (): Buffer =>
  Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000970485973000003e8000003e801b57b526b' +
      '0000000d49444154089963f8ffff7f0300097c037e6cec10c90000000049454e44ae426082',
    'hex',
  );

/** A real 8 x 8 JPEG (made once with sharp; kept as bytes so the helper stays synchronous). */
export const jpegBytes = (): Buffer =>
  Buffer.from(
    'ffd8ffdb004300100b0c0e0c0a100e0d0e1211101318281a181616183123251d283a333d3c3933383740485c4e404457453738506d51575f626768673e4d7179' +
    '7064785c656763ffdb0043011112121815182f1a1a2f634238426363636363636363636363636363636363636363636363636363636363636363636363636363' +
    '636363636363636363636363ffc00011080008000803012200021101031101ffc4001500010100000000000000000000000000000004ffc40014100100000000' +
    '000000000000000000000000ffc40014010100000000000000000000000000000005ffc40014110100000000000000000000000000000000ffda000c03010002' +
    '110311003f00ac0144dfffd9',
    'hex',
  );

/**
 * A JPEG as a phone writes one: the given size, EXIF with the camera's make, the GPS position of
 * where it was taken (Cape Town) and an orientation (6: the camera was turned, show it rotated 90 degrees).
 */
export function phonePhoto(width = 800, height = 600, orientation = 6): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#4a6b8a' } })
    .withExif({
      IFD0: { Make: 'Karoo Phone', Model: 'Test 40' },
      IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 55/1 1/1', GPSLongitudeRef: 'E', GPSLongitude: '18/1 25/1 26/1' },
    })
    .withMetadata({ orientation })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The tags in an EXIF block's first directory (IFD0), as hex: 8825 is the pointer to the GPS data. */
export function exifTags(exif: Buffer): string[] {
  const start = exif.subarray(0, 6).toString('latin1') === 'Exif\0\0' ? 6 : 0;
  const le = exif.subarray(start, start + 2).toString('latin1') === 'II';
  const u16 = (i: number) => (le ? exif.readUInt16LE(i) : exif.readUInt16BE(i));
  const u32 = (i: number) => (le ? exif.readUInt32LE(i) : exif.readUInt32BE(i));
  const ifd = start + u32(start + 4);
  return Array.from({ length: u16(ifd) }, (_, k) => u16(ifd + 2 + 12 * k).toString(16));
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  let crc = 0xffffffff;
  for (const byte of typed) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  const sum = Buffer.alloc(4);
  sum.writeUInt32BE((crc ^ 0xffffffff) >>> 0);
  return Buffer.concat([length, typed, sum]);
}

/**
 * A decompression bomb: a whole, valid PNG of `side` x `side` black pixels (1 bit, greyscale) that
 * deflate squeezes to about 110 KB for 30 000 x 30 000, where a decoder would need 900 megapixels.
 */
export function decompressionBombPng(side = 30_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((1 + Math.ceil(side / 8)) * side); // each row: filter byte 0, then zeros
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export type MultipartPart =
  | { name: string; value: string }
  | { name: string; filename: string; data: Buffer; contentType?: string };

export interface MultipartBody {
  payload: Buffer;
  headers: { 'content-type': string };
}

export function multipart(parts: MultipartPart[]): MultipartBody {
  const boundary = `----karoo-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('filename' in part) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
            `Content-Type: ${part.contentType ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.data,
        Buffer.from('\r\n'),
      );
    } else {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The upload form the profile page sends: a `document` file and its `type`. */
export function documentUpload(type: string | undefined, data: Buffer, filename = 'document.pdf', contentType = 'application/pdf'): MultipartBody {
  return multipart([...(type === undefined ? [] : [{ name: 'type', value: type }]), { name: 'document', filename, data, contentType }]);
}
