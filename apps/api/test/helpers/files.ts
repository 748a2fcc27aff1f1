// Small files with the right magic bytes (types are judged by content), and a hand-built
// multipart body for app.inject().
import { randomBytes } from 'node:crypto';
import { makePdf } from '../../src/db/seed/demo-files';

export const pdfBytes = (label = 'Test document'): Buffer => makePdf([label]);

export const pngBytes = (): Buffer =>
  Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cf000000030101005b1b6d820000000049454e44ae426082', 'hex'),
  ]);

export const jpegBytes = (): Buffer =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0', 'latin1'), randomBytes(64), Buffer.from([0xff, 0xd9])]);

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
