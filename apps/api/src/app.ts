// Builds the Fastify app from its context. Tests call buildApp and use app.inject(); server.ts
// is the only place that opens a port.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import helmet from 'helmet';
import multipart from '@fastify/multipart';
import fastifySse from '@fastify/sse';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { MAX_UPLOAD_BYTES } from '@karoo/shared';
import type { AppContext } from './context';
import { adminRoutes } from './modules/admin';
import { auditRoutes } from './modules/audit';
import { bookingsRoutes, hostCancellations, paidTripOf } from './modules/bookings';
import { carCalendarRoutes, carsRoutes } from './modules/cars';
import { dataProtectionRoutes } from './modules/data-protection';
import { devtoolsRoutes } from './modules/devtools';
import { earningsRoutes } from './modules/earnings';
import { handleTransferEvent, payoutsRoutes } from './modules/payouts';
import { healthRoutes } from './modules/health';
import { messagesRoutes } from './modules/messages';
import { privacyRoutes } from './modules/privacy';
import { liveRoutes, notificationsRoutes } from './modules/notifications';
import { createPageServer, INTERNAL_HEADER, isRenderedPage, loadViteManifest, sitemapRoutes, type PageRenderer } from './modules/pages';
import { cancelPaidTrip, cancelTripRequestOf, findVisibleLedger, paymentsRoutes, tripChangesRoutes } from './modules/payments';
import { receiptsRoutes } from './modules/receipts';
import { reviewsRoutes } from './modules/reviews';
import { settingsRoutes } from './modules/settings';
import { recordClaimCardPayment, tripsRoutes } from './modules/trips';
import { authenticate, usersRoutes } from './modules/users';
import { registerAuth } from './plugins/auth';
import { registerCompression } from './plugins/compress';
import { registerErrorHandler } from './plugins/error-handler';
import { registerMetrics } from './plugins/metrics';
import { maintenanceGuard } from './plugins/maintenance';
import { trustProxyOption } from './plugins/trust-proxy';
import { transformOperation } from './plugins/openapi';
import { PUBLIC_URL_PREFIX, publicFilesRoutes } from './lib/public-files';
import { redisRateLimitStore } from './lib/rate-limit-store';

export interface BuildOptions {
  ctx: AppContext;
  logger: FastifyBaseLogger;
  /** Folder of the built SPA; served with an index.html fallback when present. */
  webDistDir?: string;
  /**
   * The web app's server renderer (decision 044; server.ts loads apps/web/dist-server): with it the
   * public pages are sent rendered; without it every page is index.html.
   */
  pageRenderer?: PageRenderer | null;
  /** The HTML the renderer's pages are put in; the built index.html unless given. */
  pageTemplate?: string;
  /** How far behind the event loop is (the page server's own measure unless given; tests drive it). */
  pageLoopDelayMs?: () => number;
  /** Addresses per sitemap file (50,000 by the protocol; tests page with fewer). */
  sitemapUrlsPerFile?: number;
}

const REQUEST_ID = /^[\w-]{8,64}$/;

export async function buildApp({ ctx, logger, webDistDir, pageRenderer, pageTemplate, pageLoopDelayMs, sitemapUrlsPerFile }: BuildOptions): Promise<FastifyInstance> {
  // The server renderer's own API calls (app.inject) carry this process's key past the rate limit:
  // they come from 127.0.0.1 for every visitor of a public page.
  const internalKey = randomBytes(24).toString('base64url');
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(ctx.env.TRUST_PROXY),
    requestIdHeader: false,
    genReqId: (req) => {
      const header = req.headers['x-request-id'];
      return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
    },
    ajv: { customOptions: { coerceTypes: false } },
    // The router's own refusals (undecodable URL, over-long path parameter) bypass the error
    // handler; answer them with the same envelope too.
    frameworkErrors: (error, request, reply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : error.code === 'FST_ERR_BAD_URL' ? 400 : 500;
      const message =
        status === 414 ? 'The URL is too long.' : status === 400 ? 'The URL is not valid.' : 'Something went wrong on our side. Please try again.';
      if (status === 500) request.log.error({ err: error }, 'router error');
      // frameworkErrors is generic over every route's reply type; this answer fits any of them.
      return (reply as unknown as FastifyReply).status(status).header('x-request-id', request.id).send({ success: false, message });
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Helmet's security headers, its middleware built once here. @fastify/helmet builds it again for
  // every request (parsing the policy each time): 5% of a browse answer's CPU in the bench's profile.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", 'https://js.paystack.co'],
        styleSrc: ["'self'", "'unsafe-inline'", 'https://paystack.com'],
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          'https://*.tile.openstreetmap.org',
          'https://server.arcgisonline.com',
          'https://*.arcgisonline.com',
        ],
        connectSrc: ["'self'", 'https://api.paystack.co'],
        frameSrc: ['https://checkout.paystack.com', 'https://*.paystack.co', 'https://*.paystack.com'],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)));

  await app.register(multipart, { limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 10, parts: 12 } });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Karoo API',
        version: '1.0.0',
        license: { name: 'Proprietary: Karoo (Pty) Ltd', url: 'https://karoo.co.za/terms' },
        description:
          'Peer-to-peer car rental marketplace for South Africa. Every answer is `{ success, message?, data }`; failures are `{ success: false, message, errors? }`.',
      },
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
    },
    transform: (route) => transformOperation(route, jsonSchemaTransform),
  });
  // The reference page keeps its own strict policy for scripts; Swagger UI sets inline styles as it
  // renders (style attributes), so styles alone may be inline there.
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/style-src ([^;]*);/, "style-src $1 'unsafe-inline';").replace(/\s+'unsafe-inline'/g, " 'unsafe-inline'"),
  });

  registerAuth(app, (token) => authenticate(ctx, token));
  registerMetrics(app, ctx);

  await app.register(
    async (api) => {
      // API answers only: the web app's files are compressed once by the build (preCompressed).
      await registerCompression(api);
      await api.register(rateLimit, {
        max: ctx.env.RATE_LIMIT_PER_MINUTE,
        timeWindow: '1 minute',
        allowList: (request) => request.headers[INTERNAL_HEADER] === internalKey,
        // With REDIS_URL every instance counts against one limit (decision 026).
        ...(ctx.redis ? { store: redisRateLimitStore(ctx.redis, `${ctx.env.CACHE_NAMESPACE}:rate-limit:`, logger) } : {}),
        errorResponseBuilder: (_request, context) =>
          Object.assign(new Error(`Too many requests. Please try again in ${Math.ceil(context.ttl / 1000)} seconds.`), {
            statusCode: 429,
          }),
      });
      api.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
      api.addHook('onRequest', maintenanceGuard(ctx));
      await api.register(healthRoutes(ctx));
      await api.register(usersRoutes(ctx));
      await api.register(notificationsRoutes(ctx));
      await api.register(fastifySse, { heartbeatInterval: ctx.env.LIVE_HEARTBEAT_MS });
      await api.register(liveRoutes(ctx));
      await api.register(adminRoutes(ctx));
      await api.register(auditRoutes(ctx));
      await api.register(settingsRoutes(ctx));
      await api.register(carsRoutes(ctx, { hostCancellationsOf: hostCancellations, paidTripOf }));
      await api.register(carCalendarRoutes(ctx));
      await api.register(bookingsRoutes(ctx, { ledgerOf: findVisibleLedger, cancelPaidTrip: (c, viewer, id, body) => cancelPaidTrip(c, viewer, id, cancelTripRequestOf(body)) }));
      await api.register(paymentsRoutes(ctx, { onTransferEvent: handleTransferEvent, onClaimCharge: recordClaimCardPayment }));
      await api.register(tripChangesRoutes(ctx));
      await api.register(reviewsRoutes(ctx));
      await api.register(messagesRoutes(ctx));
      await api.register(earningsRoutes(ctx));
      await api.register(payoutsRoutes(ctx));
      await api.register(receiptsRoutes(ctx));
      await api.register(dataProtectionRoutes(ctx));
      await api.register(tripsRoutes(ctx));
      await api.register(privacyRoutes(ctx));
      await api.register(devtoolsRoutes(ctx));
    },
    { prefix: '/api' },
  );

  // Car photos (public files), from the public store whatever it is; cached for good.
  await app.register(publicFilesRoutes(ctx));

  // sitemap.xml and robots.txt, where crawlers look for them (decision 044).
  await app.register(sitemapRoutes(ctx, sitemapUrlsPerFile ? { urlsPerFile: sitemapUrlsPerFile } : {}));

  const hasWeb = !!webDistDir && existsSync(path.join(webDistDir, 'index.html'));
  const template = pageTemplate ?? (hasWeb ? readFileSync(path.join(webDistDir, 'index.html'), 'utf8') : null);
  const servePage =
    hasWeb && pageRenderer && template ? createPageServer(ctx, app, { renderer: pageRenderer, template, internalKey, manifest: loadViteManifest(webDistDir), ...(pageLoopDelayMs ? { loopDelayMs: pageLoopDelayMs } : {}) }) : null;
  if (hasWeb) {
    // The build writes a .br and a .gz copy of each file (vite.config.ts): sent as the browser
    // accepts; hashed assets are cached for good, the app's HTML is always revalidated.
    await app.register(fastifyStatic, {
      root: webDistDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      setHeaders: (reply, filePath) => {
        reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    // The app's HTML answers only for its own routes (GET, not the API, not a file): a missing
    // photo, a missing script chunk or any other file name is a real 404, so browsers, caches and
    // crawlers never take the app's page for an image or a script.
    const isFile = url.startsWith(PUBLIC_URL_PREFIX) || url.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(url);
    if (hasWeb && (request.method === 'GET' || request.method === 'HEAD') && !url.startsWith('/api/') && url !== '/api' && !isFile) {
      // The public pages rendered on the server; the shell when rendering failed (logged) or for any other page.
      if (servePage && isRenderedPage(url) && (await servePage(request, reply))) return reply;
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return reply.status(404).send({ success: false, message: isFile ? 'File not found' : `Route ${request.method} ${url} not found` });
  });

  return app;
}
