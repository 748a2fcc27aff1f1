// Files to and from the Karoo API: multipart uploads, a private file's bytes, and a private file
// opened or saved. Apart from api-client.ts, which every page loads: only the signed-in screens that
// move files load this.
import { apiRequest, failure, readEnvelope, send, UPLOAD_TIMEOUT_MS, type ApiResult, type RequestOptions } from './api-client';

/** Sends multipart form data (files). Append text fields before files: the server reads in order. */
export function uploadForm<T>(path: string, form: FormData, options: Omit<RequestOptions, 'body'> = {}): Promise<ApiResult<T>> {
  return apiRequest<T>(path, { method: 'POST', timeoutMs: UPLOAD_TIMEOUT_MS, ...options, body: form });
}

/** A private file's bytes (a trip photo: a plain <img> cannot send the token). */
export async function fetchBlob(path: string, options: { signal?: AbortSignal } = {}): Promise<Blob> {
  const response = await send(path, { timeoutMs: UPLOAD_TIMEOUT_MS, headers: { Accept: '*/*' }, ...(options.signal ? { signal: options.signal } : {}) });
  if (!response.ok) throw failure(response, await readEnvelope(response));
  return response.blob();
}

function filenameFrom(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1] ?? null;
}

export interface DownloadOptions {
  /** 'open' shows the file in a new tab; 'save' downloads it. */
  mode?: 'open' | 'save';
  filename?: string;
}

/**
 * Fetches a private file with the bearer token (a plain link cannot send it) and opens or saves it.
 * Call it straight from a click handler: the new tab is opened before the first await so that
 * popup blockers allow it.
 */
export async function downloadFile(path: string, options: DownloadOptions = {}): Promise<void> {
  const mode = options.mode ?? 'save';
  const tab = mode === 'open' ? window.open('', '_blank') : null;
  try {
    const response = await send(path, { timeoutMs: UPLOAD_TIMEOUT_MS, headers: { Accept: '*/*' } });
    if (!response.ok) throw failure(response, await readEnvelope(response));
    const blob = await response.blob();
    const url = URL.createObjectURL(blob);
    if (tab) {
      tab.location.href = url;
    } else {
      const link = document.createElement('a');
      link.href = url;
      link.download = options.filename ?? filenameFrom(response.headers.get('content-disposition')) ?? 'document';
      document.body.appendChild(link);
      link.click();
      link.remove();
    }
    // Give the tab or the download time to read the blob before it is released.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  } catch (error) {
    tab?.close();
    throw error;
  }
}
