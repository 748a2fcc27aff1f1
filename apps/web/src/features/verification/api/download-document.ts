// GET /api/user/{username}/documents/{type}: private files need the bearer token, so they are
// fetched by the api-client and handed to the browser as a blob.
import type { DocumentType } from '@karoo/shared';
import { downloadFile } from '@/lib/api-files';

export function openDocument(username: string, type: DocumentType): Promise<void> {
  return downloadFile(`/user/${encodeURIComponent(username)}/documents/${type}?inline=1`, { mode: 'open' });
}

export function saveDocument(username: string, type: DocumentType): Promise<void> {
  return downloadFile(`/user/${encodeURIComponent(username)}/documents/${type}`, { mode: 'save' });
}
