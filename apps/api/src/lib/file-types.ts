// File types are judged by content (magic bytes), never by name or the client's claimed type; the
// detection itself lives in @karoo/shared, which the web app runs on a file the moment it is chosen.
export { detectFileType, type DetectedType } from '@karoo/shared';

export const DOCUMENT_MIME_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;

/** The extension a stored document is downloaded with, from the type detected when it was stored. */
export function documentExtension(mime: string): 'pdf' | 'png' | 'jpg' {
  return mime === 'application/pdf' ? 'pdf' : mime === 'image/png' ? 'png' : 'jpg';
}
