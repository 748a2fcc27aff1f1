// Public files (car photos, decisions.md section 9): written under DATA_DIR/files/public and
// served by app.ts at /uploads/. Keys carry random names, so the files are cached as immutable.
import path from 'node:path';
import type { AppContext } from '../context';
import { LocalDiskStorage, type Storage } from './storage';

export const PUBLIC_URL_PREFIX = '/uploads/';

export function publicFilesDir(env: { FILES_DIR: string }): string {
  return path.join(env.FILES_DIR, 'public');
}

const stores = new WeakMap<AppContext, Storage>();

/** The public store of an app: local disk under DATA_DIR/files/public. */
export function publicFiles(ctx: AppContext): Storage {
  let store = stores.get(ctx);
  if (!store) {
    store = new LocalDiskStorage(publicFilesDir(ctx.env));
    stores.set(ctx, store);
  }
  return store;
}

export function publicUrl(key: string): string {
  return `${PUBLIC_URL_PREFIX}${key}`;
}

/** The storage key behind one of our public URLs, or null for anything else. */
export function publicKeyOf(url: string): string | null {
  if (!url.startsWith(PUBLIC_URL_PREFIX)) return null;
  const key = url.slice(PUBLIC_URL_PREFIX.length).split('?')[0] ?? '';
  return key && !key.includes('..') ? key : null;
}
