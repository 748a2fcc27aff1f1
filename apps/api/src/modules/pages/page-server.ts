// The public pages rendered on the server (decision 044): /, /cars (with its query) and a car page
// (/cars/{id}, /car/{id}) are sent as HTML with their data, head and hydration state, from the web
// app's server renderer (apps/web/src/entry-server.tsx, built into apps/web/dist-server/). Their
// API calls are answered in this process (app.inject, past the rate limit by a per-process key).
// Every other page gets the app's shell (index.html) as before. A render that fails or takes too
// long is logged and the shell is sent instead: never an error page.
// What is sent is the same for every visitor (the server does not know the browser's session), so
// each URL's page is kept for PAGE_CACHE_MS and forgotten, on every instance, whenever the cache bus
// says a browse page changed (any write to a car, a booking or a review: the cars module's
// subscriptions): a car page is right within the bus's delay of an edit.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { BROWSE_TOPIC, wasCarRemoved } from '../cars';

/** What apps/web/src/entry-server.tsx exports (its RenderRequest and RenderResult). */
export interface PageRenderer {
  render(request: {
    url: string;
    origin: string;
    api: (path: string) => Promise<{ status: number; body: string }>;
    timeoutMs?: number;
  }): Promise<{ status: number; location?: string; head: string; html: string; state: string; missingCar?: string; modules?: string[] }>;
}

/** The part of Vite's build manifest (dist/.vite/manifest.json) read here: each source's chunk and the chunks it imports. */
export type ViteManifest = Record<string, { file: string; imports?: string[] }>;

/** Reads the web build's manifest; an empty one when the build has none (the pages then preload nothing more). */
export function loadViteManifest(webDistDir: string): ViteManifest {
  try {
    return JSON.parse(readFileSync(path.join(webDistDir, '.vite', 'manifest.json'), 'utf8')) as ViteManifest;
  } catch {
    return {};
  }
}

/**
 * The files of the chunks of `sources` and of everything they import (Vite's manifest), for the
 * page's code to fetch with its entry rather than once the entry has run and asked for them.
 */
export function routeModuleFiles(manifest: ViteManifest, sources: readonly string[]): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    files.push(`/${chunk.file}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const source of sources) visit(source);
  return files;
}

/** How long a rendered page is served again (when no change is announced before). */
export const PAGE_CACHE_MS = 30_000;
const MAX_ENTRIES = 1000;
const RENDER_TIMEOUT_MS = 5000;
/** The header that lets the renderer's own API calls past the rate limit (its value is per process). */
export const INTERNAL_HEADER = 'x-karoo-render';

/** Loads the built server renderer next to the web app's build (dist-server beside dist); null when there is none. */
export async function loadPageRenderer(webDistDir: string): Promise<PageRenderer | null> {
  const file = path.join(webDistDir, '..', 'dist-server', 'entry-server.js');
  try {
    readFileSync(file);
  } catch {
    return null;
  }
  const loaded = (await import(pathToFileURL(file).href)) as Partial<PageRenderer>;
  return typeof loaded.render === 'function' ? (loaded as PageRenderer) : null;
}

/** Whether `pathname` is a page the server renders. */
export function isRenderedPage(pathname: string): boolean {
  return pathname === '/' || pathname === '/cars' || /^\/cars?\/[^/]+$/.test(pathname);
}

interface Page {
  status: number;
  html: string;
  at: number;
  gzip?: Buffer;
  br?: Buffer;
}

export interface PageServerOptions {
  renderer: PageRenderer;
  /** The app's index.html (its script and style tags). */
  template: string;
  /** The secret value of INTERNAL_HEADER for this process. */
  internalKey: string;
  /** Time a page is kept (ms); 0 renders every request. */
  cacheMs?: number;
  /** The web build's manifest (loadViteManifest), for the pages' modulepreload links. */
  manifest?: ViteManifest;
}

/** The id of the page's code list (apps/web/public/boot.js reads it). */
const CODE_ID = 'karoo-code';

/**
 * Puts a render into the template: the head's tags replace its title and description, the page goes
 * in #root. The template's script and modulepreload tags are taken out: the page is there to read
 * without them, so its code is loaded by /boot.js once the page has loaded and been painted (or at
 * the visitor's first touch), not fetched beside the style sheet and the first photos (decision
 * 052). `moreModules` are the page's route chunks, fetched with the entry.
 */
export function fillTemplate(template: string, head: string, html: string, state: string, moreModules: readonly string[] = []): string {
  let entry: string | null = null;
  const preload: string[] = [];
  let page = template
    .replace(/\s*<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/g, (_tag, src: string) => {
      entry ??= src;
      return '';
    })
    .replace(/\s*<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>/g, (_tag, href: string) => {
      preload.push(href);
      return '';
    });
  if (head) {
    page = page.replace(/<title>[\s\S]*?<\/title>\s*/i, '').replace(/<meta\s+name="description"[\s\S]*?\/?>\s*/i, '');
    page = page.replace('</head>', `  ${head}\n  </head>`);
  }
  if (entry) {
    const code = { entry, preload: [...new Set([...preload, ...moreModules])].filter((file) => file !== entry) };
    const json = JSON.stringify(code).replace(/</g, '\\u003c');
    page = page.replace('</head>', `  <script type="application/json" id="${CODE_ID}">${json}</script>\n    <script src="/boot.js" defer></script>\n  </head>`);
  }
  return page.replace(/<div id="root">\s*<\/div>/, `<div id="root">${html}</div>${state}`);
}

export function createPageServer(ctx: AppContext, app: FastifyInstance, options: PageServerOptions) {
  const cacheMs = options.cacheMs ?? PAGE_CACHE_MS;
  const pages = new Map<string, Page>();
  const rendering = new Map<string, Promise<Page>>();
  let generation = 0;
  ctx.cacheBus.subscribe(BROWSE_TOPIC, () => {
    generation += 1;
    pages.clear();
    rendering.clear();
  });

  const api = async (apiPath: string) => {
    const answer = await app.inject({ method: 'GET', url: apiPath, headers: { accept: 'application/json', [INTERNAL_HEADER]: options.internalKey } });
    return { status: answer.statusCode, body: answer.body };
  };

  async function renderPage(url: string): Promise<Page> {
    const result = await options.renderer.render({ url, origin: ctx.env.APP_URL, api, timeoutMs: RENDER_TIMEOUT_MS });
    let status = result.status;
    // A car taken off Karoo is gone for good (410), so search engines drop it; one that never was is 404.
    if (status === 404 && result.missingCar && (await wasCarRemoved(ctx, result.missingCar))) status = 410;
    if (status >= 300 && status < 400) throw new Error(`The server renderer redirected ${url} to ${result.location}`);
    const modules = routeModuleFiles(options.manifest ?? {}, result.modules ?? []);
    return { status, html: fillTemplate(options.template, result.head, result.html, result.state, modules), at: Date.now() };
  }

  function cachedRender(url: string): Promise<Page> {
    if (cacheMs <= 0) return renderPage(url);
    const page = pages.get(url);
    if (page && Date.now() - page.at < cacheMs) return Promise.resolve(page);
    const pending = rendering.get(url);
    if (pending) return pending;
    const startedIn = generation;
    const promise = renderPage(url).finally(() => {
      if (rendering.get(url) === promise) rendering.delete(url);
    });
    rendering.set(url, promise);
    return promise.then((fresh) => {
      // A render begun before a change was announced may hold the old car: sent, not kept.
      if (startedIn === generation) {
        if (pages.size >= MAX_ENTRIES) pages.delete(pages.keys().next().value!);
        pages.delete(url);
        pages.set(url, fresh);
      }
      return fresh;
    });
  }

  // Renders are not free (the API's own calls run past its rate limit): one address gets at most
  // RATE_LIMIT_PER_MINUTE renders a minute, then the shell, which works the same in a browser.
  const rendersPerMinute = ctx.env.RATE_LIMIT_PER_MINUTE;
  const renders = new Map<string, { count: number; since: number }>();
  const mayRender = (ip: string) => {
    const now = Date.now();
    let entry = renders.get(ip);
    if (!entry || now - entry.since >= 60_000) {
      if (renders.size >= 10_000) renders.clear();
      entry = { count: 0, since: now };
      renders.set(ip, entry);
    }
    entry.count += 1;
    return entry.count <= rendersPerMinute;
  };

  /** Sends the server-rendered page for `request`; false when it could not (the caller sends the shell). */
  return async function servePage(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    let page: Page;
    try {
      const cached = cacheMs > 0 ? pages.get(request.url) : undefined;
      if (!(cached && Date.now() - cached.at < cacheMs) && !mayRender(request.ip)) return false;
      page = await cachedRender(request.url);
    } catch (error) {
      request.log.error({ err: error, url: request.url }, 'server render failed: sending the client-rendered page');
      return false;
    }
    const accepts = request.headers['accept-encoding'] ?? '';
    reply.status(page.status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (/\bbr\b/.test(accepts)) {
      page.br ??= brotliCompressSync(page.html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
      await reply.header('content-encoding', 'br').send(page.br);
    } else if (/\bgzip\b/.test(accepts)) {
      page.gzip ??= gzipSync(page.html, { level: 6 });
      await reply.header('content-encoding', 'gzip').send(page.gzip);
    } else {
      await reply.send(page.html);
    }
    return true;
  };
}
