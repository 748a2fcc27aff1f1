import { hydrate, type DehydratedState } from '@tanstack/react-query';
import { startTransition, StrictMode, useEffect } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { matchRoutes, RouterProvider, type HydrationState } from 'react-router';
import { AppProviders } from './app/providers';
import { createAppRouter, routes } from './app/router';
import { createQueryClient } from './lib/query-client';
import { queryKeys } from './lib/query-keys';
import { getToken } from './lib/session-storage';
import './index.css';

// The public pages come rendered from the server with the state they were rendered from (decision
// 044, entry-server.tsx); every other page is the empty shell, rendered here.
const ROUTER_STATE_ID = 'karoo-router-state';
const QUERY_STATE_ID = 'karoo-query-state';
const SITE_TITLE = 'Karoo — Car rental from local hosts';

function readState<T>(id: string): T | null {
  const text = document.getElementById(id)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

/**
 * Marks the page live (`<html data-ready>`) once React has rendered or hydrated it: from then on its
 * buttons answer. The end-to-end tests wait for it on a server-rendered page before they click.
 */
function MarkReady() {
  useEffect(() => {
    document.documentElement.dataset.ready = 'true';
  }, []);
  return null;
}

async function start() {
  const container = document.getElementById('root')!;
  const routerState = readState<HydrationState>(ROUTER_STATE_ID);
  const queryState = readState<DehydratedState>(QUERY_STATE_ID);
  const isServerRendered = !!routerState && container.hasChildNodes();

  // One query cache for the pages and the router's loaders (a car page's request starts early).
  const queryClient = createQueryClient();
  if (isServerRendered) {
    if (queryState) {
      hydrate(queryClient, queryState);
      // The server renders a car as a stranger reads it (its area, no plate; decision 055): a signed-in
      // reader (its host, an admin, a paid renter) asks again on mount, and may be answered more.
      if (getToken()) void queryClient.invalidateQueries({ queryKey: queryKeys.cars.details(), refetchType: 'none' });
      // As on the server (entry-server.tsx): a failed request (a car not on Karoo) stays failed on mount.
      for (const query of queryState.queries) {
        if (query.state.status === 'error') queryClient.setQueryDefaults(query.queryKey, { retryOnMount: false });
      }
    }
    // The page's lazy routes are loaded before the first render, so that it matches the server's
    // HTML instead of showing the loading placeholder.
    const lazyMatches = matchRoutes(routes, window.location)?.filter((match) => match.route.lazy) ?? [];
    await Promise.all(
      lazyMatches.map(async ({ route }) => {
        const loaded = await (route.lazy as () => Promise<Record<string, unknown>>)();
        Object.assign(route, { ...loaded, lazy: undefined });
      }),
    );
  }
  const router = createAppRouter(queryClient, isServerRendered ? routerState : undefined);

  // The server's title names the page it rendered (a car, a city): another page opened in the app
  // gets the site's title rather than keep a car's name; back on the first page, its own again.
  const firstUrl = `${window.location.pathname}${window.location.search}`;
  const firstTitle = document.title;
  router.subscribe(({ location }) => {
    document.title = `${location.pathname}${location.search}` === firstUrl ? firstTitle : SITE_TITLE;
  });

  // After a 401 the session is gone: go to sign in, and come back here afterwards.
  function goToLogin() {
    const { pathname, search, hash } = router.state.location;
    void router.navigate('/login', { state: { from: { pathname, search, hash } } });
  }

  const app = (
    <StrictMode>
      <AppProviders onSessionExpired={goToLogin} queryClient={queryClient} hydrating={isServerRendered}>
        <RouterProvider router={router} />
      </AppProviders>
      <MarkReady />
    </StrictMode>
  );
  if (isServerRendered) {
    // The server's page is already on screen (public/boot.js loads this code after its first paint,
    // decision 052). It is hydrated as a transition, which React renders in slices of a few
    // milliseconds that leave the main thread free between them (a tap or a scroll is never held
    // up by one long task), where a plain hydrateRoot renders the whole page in one.
    startTransition(() => {
      hydrateRoot(container, app, {
        // A page that does not match its server HTML is re-rendered by React; said loudly, so the
        // end-to-end run (public-pages.spec.ts) fails on it.
        onRecoverableError: (error, info) => console.error('Hydration error:', error, info.componentStack ?? ''),
      });
    });
  }
  else createRoot(container).render(app);
}

void start();
