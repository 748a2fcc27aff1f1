// The public pages module (decision 044): the server-rendered public pages (page-server.ts),
// sitemap.xml and robots.txt. The only file the app imports.
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context';
import { robotsTxt, sitemap, sitemapFile, SITEMAP_MAX_URLS } from './sitemap';

export {
  createPageServer,
  fillTemplate,
  INTERNAL_HEADER,
  isRenderedPage,
  loadPageRenderer,
  loadViteManifest,
  PAGE_CACHE_MS,
  type PageRenderer,
  type PageServerOptions,
  type ViteManifest,
} from './page-server';
export { robotsTxt, SITEMAP_MAX_URLS } from './sitemap';

export interface SitemapRoutesOptions {
  /** Addresses per sitemap file (the protocol's 50,000; tests page with fewer). */
  urlsPerFile?: number;
}

/** GET /sitemap.xml, /sitemaps/{n}.xml and /robots.txt, outside /api (where crawlers look for them). */
export function sitemapRoutes(ctx: AppContext, options: SitemapRoutesOptions = {}): FastifyPluginAsync {
  const perFile = options.urlsPerFile ?? SITEMAP_MAX_URLS;
  const origin = ctx.env.APP_URL;
  const hide = { schema: { hide: true } };
  return async (app) => {
    app.get('/sitemap.xml', hide, async (_request, reply) => {
      const answer = await sitemap(ctx, origin, perFile);
      return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=300').send(answer.xml);
    });
    app.get<{ Params: { file: string } }>('/sitemaps/:file', hide, async (request, reply) => {
      const match = /^(\d{1,6})\.xml$/.exec(request.params.file);
      const answer = match ? await sitemapFile(ctx, origin, Number(match[1]), perFile) : { status: 404 as const, xml: '' };
      if (answer.status === 404) return reply.status(404).send({ success: false, message: 'File not found' });
      return reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=300').send(answer.xml);
    });
    app.get('/robots.txt', hide, async (_request, reply) =>
      reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(robotsTxt(origin)),
    );
  };
}
