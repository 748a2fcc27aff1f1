// Public files (car photos, decisions.md section 9): kept in ctx.publicFiles (local disk or the S3
// bucket, lib/storage.ts) and served by this module at /uploads/<key> from whichever store is
// configured, so every instance serves every photo. Keys carry random names, so the files are
// cached as immutable. A missing file is a 404 JSON answer, never the web app's page.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { AppContext } from '../context';
import { contentTypeOf, isValidStorageKey } from './storage';

export const PUBLIC_URL_PREFIX = '/uploads/';

export const FILE_NOT_FOUND = 'File not found';

export function publicUrl(key: string): string {
  return `${PUBLIC_URL_PREFIX}${key}`;
}

/** The storage key behind one of our public URLs, or null for anything else. */
export function publicKeyOf(url: string): string | null {
  if (!url.startsWith(PUBLIC_URL_PREFIX)) return null;
  const key = url.slice(PUBLIC_URL_PREFIX.length).split('?')[0] ?? '';
  return key && isValidStorageKey(key) ? key : null;
}

function fileNotFound(reply: FastifyReply) {
  return reply.status(404).send({ success: false, message: FILE_NOT_FOUND });
}

/** GET (and HEAD) /uploads/<key>: a public file, streamed from the public store. */
export function publicFilesRoutes(ctx: Pick<AppContext, 'publicFiles'>) {
  return async (app: FastifyInstance) => {
    // HEAD is declared here rather than derived from GET, which would read the whole file to drop it.
    app.route<{ Params: { '*': string } }>({
      method: ['GET', 'HEAD'],
      url: `${PUBLIC_URL_PREFIX}*`,
      exposeHeadRoute: false,
      schema: { hide: true },
      handler: async (request, reply) => {
        const key = request.params['*'];
        if (!isValidStorageKey(key)) return fileNotFound(reply);
        const file = await ctx.publicFiles.stream(key);
        if (!file) return fileNotFound(reply);
        reply
          .header('content-type', contentTypeOf(key))
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff');
        if (file.etag) reply.header('etag', file.etag);
        const unchanged = !!file.etag && request.headers['if-none-match']?.split(/\s*,\s*/).includes(file.etag);
        if (unchanged || request.method === 'HEAD') {
          // Not sent: close the file (or the store's connection) now.
          file.body.destroy();
          if (file.size !== undefined && !unchanged) reply.header('content-length', file.size);
          return reply.status(unchanged ? 304 : 200).send();
        }
        if (file.size !== undefined) reply.header('content-length', file.size);
        return reply.send(file.body);
      },
    });
  };
}
