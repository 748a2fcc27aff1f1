// GET /api/car/{id}/registration-document: a private file, fetched with the bearer token and
// opened as a blob (a plain link cannot send the token).
import { downloadFile } from '@/lib/api-files';

export function openRegistrationDocument(carUsername: string): Promise<void> {
  return downloadFile(`/car/${encodeURIComponent(carUsername)}/registration-document?inline=1`, { mode: 'open' });
}
