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
// Rendering is bounded (decision 057): at most MAX_RENDERS_IN_FLIGHT renders at once per instance,
// none begun while the event loop is RENDER_MAX_LOOP_DELAY_MS behind (past either, the shell, at once, which
// the browser renders the same), a render is stopped when every
// visitor waiting for it has gone or RENDER_TIMEOUT_MS has passed, and the pages kept are bounded
// by their bytes as well as their number, least recently used first out, each gone PAGE_CACHE_MS
// after it was made.
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
    /** Aborted when nobody waits for the page any more, or it took too long: the render stops. */
    signal?: AbortSignal;
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
/** The most pages kept, and the most bytes they may hold (HTML as UTF-16 in memory, and its compressed copies). */
export const MAX_CACHED_PAGES = 500;
export const MAX_CACHED_BYTES = 32 * 1024 * 1024;
/**
 * Renders at once per instance. A render is CPU (React) between the in-process API calls; past a few
 * at once each only waits longer for the same cores, and the API's own requests wait behind them.
 */
export const MAX_RENDERS_IN_FLIGHT = 4;
/*
 * A new render starts only while this instance's event loop is less than RENDER_MAX_LOOP_DELAY_MS
 * (80 ms) behind, the highest delay of the last LOOP_WINDOW_MS: renders are CPU bursts whose API
 * calls run in-process, so under a flood they queue on the loop, not in flight, and the count alone
 * never refuses one. Behind, the shell is sent (a few bytes, no work), which the browser renders the same.
 */
const LOOP_SAMPLE_MS = 20;
const LOOP_WINDOW_MS = 1000;

/**
 * How far behind the event loop is: a timer every LOOP_SAMPLE_MS notes how late it fired, and the
 * answer is the worst of the last second (a render of 60 ms shows, and keeps showing a moment after,
 * so admission does not flap between bursts). One per process; its timer does not keep Node alive.
 */
let loopDelay: (() => number) | null = null;
export function eventLoopDelayMs(): number {
  if (!loopDelay) {
    // Each tick's lateness and when it was seen; a loop held for a second is seen as one late tick.
    const size = Math.ceil(LOOP_WINDOW_MS / LOOP_SAMPLE_MS);
    const late = new Float64Array(size);
    const seenAt = new Float64Array(size).fill(-Infinity);
    let next = 0;
    let expected = performance.now() + LOOP_SAMPLE_MS;
    setInterval(() => {
      const now = performance.now();
      late[next] = Math.max(0, now - expected);
      seenAt[next] = now;
      next = (next + 1) % size;
      expected = now + LOOP_SAMPLE_MS;
    }, LOOP_SAMPLE_MS).unref();
    loopDelay = () => {
      const since = performance.now() - LOOP_WINDOW_MS;
      let worst = 0;
      for (let i = 0; i < size; i += 1) if (seenAt[i]! >= since && late[i]! > worst) worst = late[i]!;
      return worst;
    };
  }
  return loopDelay();
}
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
  /** What it holds in memory, as counted against MAX_CACHED_BYTES: its HTML (two bytes a character at worst) and its compressed copies. */
  bytes: number;
}

/** A render under way, shared by every request for its URL that came while it ran. */
interface Render {
  promise: Promise<Page>;
  controller: AbortController;
  /** Requests still waiting for it; at 0 it is stopped. */
  waiting: number;
}

/** How busy the renderer is (for tests and /metrics-style reading). */
export interface PageServerStats {
  inFlight: number;
  mostInFlight: number;
  /** Renders refused for the bound (the shell sent instead), and stopped because nobody waited any more. */
  refused: number;
  /** Renders not started because the event loop was behind (the shell sent instead). */
  shed: number;
  abandoned: number;
  cachedPages: number;
  cachedBytes: number;
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
  /** Bounds (tests make them small): renders at once, pages and bytes kept. */
  maxRendersInFlight?: number;
  /** How far behind the event loop is, in ms (eventLoopDelayMs; tests give their own). */
  loopDelayMs?: () => number;
  maxCachedPages?: number;
  maxCachedBytes?: number;
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
  const maxInFlight = options.maxRendersInFlight ?? MAX_RENDERS_IN_FLIGHT;
  const loopDelayMs = options.loopDelayMs ?? eventLoopDelayMs;
  const maxLoopDelay = ctx.env.RENDER_MAX_LOOP_DELAY_MS;
  const maxPages = options.maxCachedPages ?? MAX_CACHED_PAGES;
  const maxBytes = options.maxCachedBytes ?? MAX_CACHED_BYTES;
  /** The pages kept, least recently used first (a hit moves its page to the end). */
  const pages = new Map<string, Page>();
  let cachedBytes = 0;
  const rendering = new Map<string, Render>();
  const stats: PageServerStats = { inFlight: 0, mostInFlight: 0, refused: 0, shed: 0, abandoned: 0, cachedPages: 0, cachedBytes: 0 };
  let generation = 0;

  const forget = (url: string) => {
    const page = pages.get(url);
    if (!page) return;
    pages.delete(url);
    cachedBytes -= page.bytes;
  };
  const forgetAll = () => {
    pages.clear();
    cachedBytes = 0;
  };
  /** Drops what is past its time, then the least recently used, until the bounds hold. */
  const trim = () => {
    const now = Date.now();
    for (const [url, page] of pages) if (now - page.at >= cacheMs) forget(url);
    for (const url of pages.keys()) {
      if (pages.size <= maxPages && cachedBytes <= maxBytes) break;
      forget(url);
    }
  };
  const keep = (url: string, page: Page) => {
    forget(url);
    if (page.bytes > maxBytes) return;
    pages.set(url, page);
    cachedBytes += page.bytes;
    trim();
  };
  /** A compressed copy made for a page: counted, if the page is kept. */
  const grew = (url: string, page: Page, added: number) => {
    page.bytes += added;
    if (pages.get(url) !== page) return;
    cachedBytes += added;
    trim();
  };
  /** A fresh kept page (moved to the most recently used end), or none. */
  const cachedPage = (url: string): Page | undefined => {
    const page = pages.get(url);
    if (!page) return undefined;
    if (Date.now() - page.at >= cacheMs) {
      forget(url);
      return undefined;
    }
    pages.delete(url);
    pages.set(url, page);
    return page;
  };
  ctx.cacheBus.subscribe(BROWSE_TOPIC, () => {
    generation += 1;
    forgetAll();
  });

  async function renderPage(url: string, signal: AbortSignal): Promise<Page> {
    // The render's own calls: none is made for a render that was stopped.
    const api = async (apiPath: string) => {
      signal.throwIfAborted();
      const answer = await app.inject({ method: 'GET', url: apiPath, headers: { accept: 'application/json', [INTERNAL_HEADER]: options.internalKey } });
      return { status: answer.statusCode, body: answer.body };
    };
    const result = await options.renderer.render({ url, origin: ctx.env.APP_URL, api, timeoutMs: RENDER_TIMEOUT_MS, signal });
    signal.throwIfAborted();
    let status = result.status;
    // A car taken off Karoo is gone for good (410), so search engines drop it; one that never was is 404.
    if (status === 404 && result.missingCar && (await wasCarRemoved(ctx, result.missingCar))) status = 410;
    if (status >= 300 && status < 400) throw new Error(`The server renderer redirected ${url} to ${result.location}`);
    const modules = routeModuleFiles(options.manifest ?? {}, result.modules ?? []);
    const html = fillTemplate(options.template, result.head, result.html, result.state, modules);
    return { status, html, at: Date.now(), bytes: html.length * 2 };
  }

  /** Joins the render of `url` under way, or starts one; null when the bound is reached (the shell then). */
  function joinRender(url: string): Render | null {
    const pending = rendering.get(url);
    if (pending) {
      pending.waiting += 1;
      return pending;
    }
    if (stats.inFlight >= maxInFlight) {
      stats.refused += 1;
      return null;
    }
    if (maxLoopDelay > 0 && loopDelayMs() >= maxLoopDelay) {
      stats.shed += 1;
      return null;
    }
    const controller = new AbortController();
    const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(RENDER_TIMEOUT_MS)]);
    const startedIn = generation;
    stats.inFlight += 1;
    stats.mostInFlight = Math.max(stats.mostInFlight, stats.inFlight);
    const render: Render = { controller, waiting: 1, promise: null as unknown as Promise<Page> };
    render.promise = renderPage(url, signal)
      .then((fresh) => {
        // A render begun before a change was announced may hold the old car: sent, not kept.
        if (cacheMs > 0 && startedIn === generation) keep(url, fresh);
        return fresh;
      })
      .finally(() => {
        stats.inFlight -= 1;
        if (rendering.get(url) === render) rendering.delete(url);
      });
    // A render nobody waits for any more fails unseen.
    render.promise.catch(() => {});
    rendering.set(url, render);
    return render;
  }

  /** One waiting request has gone (its client closed the connection): the last one stops the render. */
  function leaveRender(url: string, render: Render) {
    render.waiting -= 1;
    if (render.waiting > 0) return;
    stats.abandoned += 1;
    if (rendering.get(url) === render) rendering.delete(url);
    render.controller.abort(new Error(`The visitor went away before ${url} was rendered`));
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

  /**
   * Waits for the render of `request.url`, as one of the visitors waiting for it: the page, 'gone'
   * when this visitor closed the connection first (the last one to go stops the render), 'failed'.
   */
  async function awaitRender(request: FastifyRequest, reply: FastifyReply, render: Render): Promise<Page | 'gone' | 'failed'> {
    let isGone = false;
    const onClose = () => {
      isGone = true;
      leaveRender(request.url, render);
    };
    reply.raw.once('close', onClose);
    try {
      const page = await render.promise;
      return isGone || reply.raw.destroyed ? 'gone' : page;
    } catch (error) {
      if (isGone) return 'gone';
      request.log.error({ err: error, url: request.url }, 'server render failed: sending the client-rendered page');
      return 'failed';
    } finally {
      reply.raw.off('close', onClose);
    }
  }

  /** Sends the server-rendered page for `request`; false when it could not (the caller sends the shell). */
  async function servePage(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    let page = cacheMs > 0 ? cachedPage(request.url) : undefined;
    if (!page) {
      if (!mayRender(request.ip)) return false;
      const render = joinRender(request.url);
      if (!render) return false;
      const outcome = await awaitRender(request, reply, render);
      if (outcome === 'failed') return false;
      if (outcome === 'gone') {
        // Nothing to send, and nobody to send it to.
        reply.hijack();
        reply.raw.destroy();
        return true;
      }
      page = outcome;
    }
    const accepts = request.headers['accept-encoding'] ?? '';
    reply.status(page.status).type('text/html; charset=utf-8').header('cache-control', 'no-cache').header('vary', 'accept-encoding');
    if (/\bbr\b/.test(accepts)) {
      if (!page.br) {
        page.br = brotliCompressSync(page.html, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
        grew(request.url, page, page.br.length);
      }
      await reply.header('content-encoding', 'br').send(page.br);
    } else if (/\bgzip\b/.test(accepts)) {
      if (!page.gzip) {
        page.gzip = gzipSync(page.html, { level: 6 });
        grew(request.url, page, page.gzip.length);
      }
      await reply.header('content-encoding', 'gzip').send(page.gzip);
    } else {
      await reply.send(page.html);
    }
    return true;
  }

  return Object.assign(servePage, {
    /** How busy the renderer is, and what the page cache holds (tests, the chaos bench). */
    stats: (): PageServerStats => ({ ...stats, cachedPages: pages.size, cachedBytes }),
  });
}
