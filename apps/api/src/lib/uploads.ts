// The one way a route reads an uploaded file and serves a private one. Uploads are multipart with
// a single file field (the multipart plugin's limits refuse a second file and anything over the
// size limit, and the error handler words those refusals); private files leave with the headers
// that keep them out of shared caches and stop browsers guessing their type.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, badRequest } from './app-error';
import { detectFileType, DOCUMENT_MIME_TYPES } from './file-types';
import { prepareImage, quoteFileName } from './images';

export interface UploadedFile {
  buffer: Buffer;
  filename: string;
}

const CHOOSE_A_FILE = 'Please choose a file to upload.';

/**
 * Reads a multipart upload: the first file in `fieldName` and the text fields. Other files are
 * drained and ignored. `readFields` checks the text fields before the file is required, so a bad
 * field is reported even when the file is missing too. A missing or empty file is a 400 on
 * `fieldName`.
 */
export async function readSingleUpload<Fields = Record<string, string>>(
  request: FastifyRequest,
  fieldName: string,
  readFields: (fields: Record<string, string>) => Fields = (fields) => fields as Fields,
): Promise<{ file: UploadedFile; fields: Fields }> {
  if (!request.isMultipart()) throw badRequest(CHOOSE_A_FILE, { [fieldName]: CHOOSE_A_FILE });
  const text: Record<string, string> = Object.create(null);
  let file: UploadedFile | undefined;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== fieldName || file) {
        part.file.resume();
        continue;
      }
      file = { buffer: await part.toBuffer(), filename: part.filename };
    } else {
      text[part.fieldname] = String(part.value);
    }
  }
  const fields = readFields(text);
  if (!file || file.buffer.length === 0) throw badRequest(CHOOSE_A_FILE, { [fieldName]: CHOOSE_A_FILE });
  return { file, fields };
}

/** A document ready to store: a PDF as it came, a picture decoded and re-encoded by prepareImage. */
export interface PreparedDocument {
  data: Buffer;
  mime: (typeof DOCUMENT_MIME_TYPES)[number];
  ext: 'pdf' | 'png' | 'jpg';
}

/**
 * Checks an uploaded identity or registration document by content and returns what to store.
 * PDFs are kept as they are; JPEG and PNG pictures go through prepareImage (size limit, upright,
 * no metadata). Refusals name the file: 400 when it is none of the three, 415 for another type.
 */
export async function prepareDocument(file: UploadedFile, field: string): Promise<PreparedDocument> {
  const label = quoteFileName(file.filename) ?? 'The file';
  const type = detectFileType(file.buffer);
  if (!type) {
    const message = `${label} is not a PDF, JPEG or PNG file.`;
    throw badRequest(message, { [field]: message });
  }
  if (type.mime === 'application/pdf') return { data: file.buffer, mime: type.mime, ext: 'pdf' };
  if (!(DOCUMENT_MIME_TYPES as readonly string[]).includes(type.mime)) {
    const message = `Only JPEG, PNG, and PDF files are allowed: ${label} is a ${type.ext.toUpperCase()} file.`;
    throw new AppError(415, message, { [field]: message });
  }
  return prepareImage({ data: file.buffer, label, field }, 'document');
}

/** `?inline=1` (or true) shows a private file in the browser; otherwise it downloads. */
export const privateFileQuerySchema = z.object({ inline: z.enum(['0', '1', 'true', 'false']).optional() });

/** Sends a private file (an identity or registration document) to its authorised reader. */
export function sendPrivateFile(
  reply: FastifyReply,
  file: { data: Buffer; mime: string },
  options: { filename: string; inline?: string | undefined },
) {
  const disposition = ['1', 'true'].includes(options.inline ?? '') ? 'inline' : 'attachment';
  return reply
    .header('content-type', file.mime)
    .header('content-disposition', `${disposition}; filename="${options.filename}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .send(file.data);
}
