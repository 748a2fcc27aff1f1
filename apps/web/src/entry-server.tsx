// The server renderer of the public pages (decision 044), built by `vite build --ssr` into
// apps/web/dist-server/ and loaded by the API (modules/pages). For one URL it runs the route table
// of app/router.tsx through React Router's static handler (the same loaders, which on the server wait
// for their data in this request's own query cache), renders the page to HTML, and returns that
// HTML with the page's head (title, description, canonical, Open Graph, JSON-LD) and the state the
// browser hydrates from: the router's loader data and the dehydrated query cache. The pages' API
// calls are answered by the API in its own process (`api`), never over the network.
import { AsyncLocalStorage } from 'node:async_hooks';
import { PassThrough } from 'node:stream';
import { dehydrate } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToPipeableStream } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { routes, type RouteHandle, type ServerLoadContext } from './app/router';
import { headTags, pageMeta, scriptJson } from './app/ssr/page-meta';
import { prefetchLandingFigures } from './app/ssr/prefetch-landing';
import { isApiError, setApiTransport } from './lib/api-client';
import { createQueryClient } from './lib/query-client';

export interface RenderRequest {
  /** The path and query of the page ("/cars?location=Durban"). */
  url: string;
  /** The site's public origin (APP_URL), for canonical addresses and absolute image URLs. */
  origin: string;
  /** Answers a GET of the API (a path under /api) in the API's own process. */
  api: (path: string) => Promise<{ status: number; body: string }>;
  /** Gives up on a render that takes longer (ms). */
  timeoutMs?: number;
  /** Stops the render (its loaders' calls and the HTML) when aborted: the visitor went away, or it took too long. */
  signal?: AbortSignal;
}

export interface RenderResult {
  /** 200, 404 (a car that is not on Karoo), or a redirect status with `location`. */
  status: number;
  location?: string;
  /** The tags for <head>. */
  head: string;
  /** The page, for <div id="root">. */
  html: string;
  /** The <script type="application/json"> tags the browser hydrates from. */
  state: string;
  /** The car page's `{id}` when its car was not found (the API answers 410 if it was removed). */
  missingCar?: string;
  /** The source files of the page's lazy routes (the build's manifest keys), for modulepreload links. */
  modules: string[];
}

/** The element ids of the hydration state (main.tsx reads them). */
export const ROUTER_STATE_ID = 'karoo-router-state';
export const QUERY_STATE_ID = 'karoo-query-state';

const requestApi = new AsyncLocalStorage<RenderRequest['api']>();
// Every request of the pages' fetchers goes to the API of the render under way.
setApiTransport(async (url) => {
  const api = requestApi.getStore();
  if (!api) throw new Error('An API call outside a server render');
  const answer = await api(url);
  return new Response(answer.body, { status: answer.status, headers: { 'content-type': 'application/json' } });
});

const handler = createStaticHandler(routes);

function renderHtml(element: React.ReactElement, timeoutMs: number, signal: AbortSignal | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    let failed: unknown = null;
    const chunks: Buffer[] = [];
    const sink = new PassThrough();
    sink.on('data', (chunk: Buffer) => chunks.push(chunk));
    sink.on('end', () => (failed ? reject(failed instanceof Error ? failed : new Error(String(failed))) : resolve(Buffer.concat(chunks).toString('utf8'))));
    const stream = renderToPipeableStream(element, {
      // The whole page at once: its status and head depend on the data, and a crawler reads it all.
      onAllReady: () => stream.pipe(sink),
      onShellError: (error) => reject(error instanceof Error ? error : new Error(String(error))),
      onError: (error) => {
        failed ??= error;
      },
    });
    const timer = setTimeout(() => stream.abort(new Error(`Server render took longer than ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    const stop = () => stream.abort(signal?.reason);
    signal?.addEventListener('abort', stop, { once: true });
    sink.on('close', () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
    });
  });
}

export async function render(request: RenderRequest): Promise<RenderResult> {
  return requestApi.run(request.api, async () => {
    const url = new URL(request.url, request.origin);
    const queryClient = createQueryClient();
    // No retries on the server: a failed call is the browser's to try again. No garbage-collection
    // timers either (gcTime Infinity, TanStack's own default on a server): the browser's 5 minutes
    // would hold every render's client and data in memory for 5 minutes after its page was sent
    // (issue 32: the memory a flood of distinct /cars addresses left behind). The client is cleared
    // when the render ends.
    queryClient.setDefaultOptions({ queries: { ...queryClient.getDefaultOptions().queries, retry: false, gcTime: Number.POSITIVE_INFINITY } });
    try {
      return await renderWith(request, url, queryClient);
    } finally {
      queryClient.clear();
    }
  });
}

async function renderWith(request: RenderRequest, url: URL, queryClient: ReturnType<typeof createQueryClient>): Promise<RenderResult> {
  const context: ServerLoadContext = { queryClient };
  const fetchRequest = new Request(url.href, { method: 'GET', ...(request.signal ? { signal: request.signal } : {}) });
  // The landing page's figures come with it (it has no loader: the browser router would wait for one before its first render).
  const [routerContext] = await Promise.all([
    handler.query(fetchRequest, { requestContext: context as never }),
    url.pathname === '/' ? prefetchLandingFigures(queryClient) : null,
  ]);
  request.signal?.throwIfAborted();
  if (routerContext instanceof Response) {
    // A redirect (<Navigate> routes have no loader, so only a loader's own redirect would come here).
    return { status: routerContext.status, location: routerContext.headers.get('location') ?? '/', head: '', html: '', state: '', modules: [] };
  }
  // A call that failed for the server's own reasons (the database away: a 503; a timeout) is not
  // the page's answer: the render fails, and the server sends the client-rendered page, which asks
  // again. Rendered, it would say "Car Not Found" (a 404 a search engine acts on) or "could not
  // load", and the page cache would keep it.
  const failedCall = queryClient.getQueryCache().getAll().find((query) => query.state.status === 'error' && !(isApiError(query.state.error) && query.state.error.isClientError));
  if (failedCall) throw new Error(`The server render's call ${JSON.stringify(failedCall.queryKey)} failed: ${String(failedCall.state.error)}`);
  const router = createStaticRouter(handler.dataRoutes, routerContext);
  // A request that failed (a car not on Karoo) is shown as failed, not tried again on mount: the
  // page says "Car Not Found" here and in the browser's first render (main.tsx does the same).
  for (const query of queryClient.getQueryCache().getAll()) {
    if (query.state.status === 'error') queryClient.setQueryDefaults(query.queryKey, { retryOnMount: false });
  }
  const dehydrated = dehydrate(queryClient, {
    // A car that is not found is part of the page (its "Car Not Found"): the browser starts from the same answer.
    shouldDehydrateQuery: (query) => query.state.status === 'success' || query.state.status === 'error',
  });
  const html = await renderHtml(
    <StrictMode>
      <AppProviders queryClient={queryClient} hydrating>
        <StaticRouterProvider router={router} context={routerContext} hydrate={false} />
      </AppProviders>
    </StrictMode>,
    request.timeoutMs ?? 5000,
    request.signal,
  );
  const meta = pageMeta(url, request.origin, queryClient);
  const routerState = { loaderData: routerContext.loaderData, actionData: routerContext.actionData, errors: routerContext.errors };
  const state = [
    `<script type="application/json" id="${ROUTER_STATE_ID}">${scriptJson(routerState)}</script>`,
    `<script type="application/json" id="${QUERY_STATE_ID}">${scriptJson(dehydrated)}</script>`,
  ].join('');
  const modules = routerContext.matches.flatMap((match) => {
    const source = (match.route.handle as RouteHandle | undefined)?.source;
    return source ? [source] : [];
  });
  return {
    status: meta?.status ?? routerContext.statusCode,
    modules,
    head: meta ? headTags(meta) : '',
    html,
    state,
    ...(meta?.missingCar ? { missingCar: meta.missingCar } : {}),
  };
}
