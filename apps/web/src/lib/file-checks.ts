// Checks a file the moment it is chosen, so the page can say which file it refused and why before
// anything is sent (docs/decisions/031-image-uploads.md). The type is read from the file's first
// bytes, as the server reads it (a text file named fake.jpg is not a JPEG, whatever its name says);
// a picture's declared size is read from its header, so a decompression bomb is refused without
// being decoded; then the browser decodes the picture, which proves the rest of it. The server
// checks everything again.
import { describeTypes, detectFileType, imageSizeProblem, readImageSize } from '@karoo/shared';

export interface FileRule {
  /** Accepted types, by content: 'image/jpeg', 'image/png', 'image/webp', 'application/pdf'. */
  types: readonly string[];
  maxBytes: number;
  /** What the accepted files are called in a refusal: "not a JPEG, PNG or WebP image". */
  noun: 'image' | 'file';
}

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))}MB`;

/** Why `file` is refused, in a sentence that names it, or null when it may be sent. */
export async function checkChosenFile(file: File, rule: FileRule): Promise<string | null> {
  const name = `"${file.name}"`;
  if (file.size > rule.maxBytes) return `${name} is larger than ${megabytes(rule.maxBytes)}.`;
  const bytes = new Uint8Array(await file.arrayBuffer());
  const type = detectFileType(bytes);
  if (!type) return `${name} is not a ${describeTypes(rule.types)} ${rule.noun}.`;
  if (!rule.types.includes(type.mime)) {
    return `${name} is a ${describeTypes([type.mime])} file: only ${describeTypes(rule.types)} ${rule.noun}s are allowed.`;
  }
  if (type.mime === 'application/pdf') return null;
  const size = readImageSize(bytes);
  if (!size) return `${name} could not be read as a picture: the file is damaged.`;
  const tooBig = imageSizeProblem(size.width, size.height);
  if (tooBig) return `${name} ${tooBig}.`;
  if (!(await decodes(file))) return `${name} could not be read as a picture: the file is damaged.`;
  return null;
}

/** Whether the browser can decode the picture (it is within the size limit by now). */
async function decodes(file: File): Promise<boolean> {
  // Every browser we support has createImageBitmap; without it the server's decoder decides.
  if (typeof createImageBitmap !== 'function') return true;
  try {
    const bitmap = await createImageBitmap(file);
    bitmap.close();
    return true;
  } catch {
    return false;
  }
}
