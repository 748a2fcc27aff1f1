// Renders the real app (routes, providers) in memory at a given path, for component tests.
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '@/app/providers';
import { routes as appRoutes } from '@/app/router';

/**
 * The app's routes load their screens on demand (`lazy`). Tests render synchronously, so the
 * screens are loaded once here and put in place of the `lazy` functions: the first render of a
 * test already shows its page, as before the split.
 */
async function resolveLazyRoutes(list: RouteObject[]): Promise<void> {
  await Promise.all(
    list.map(async (route) => {
      if (typeof route.lazy === 'function') {
        const loaded = await route.lazy();
        delete route.lazy;
        Object.assign(route, loaded);
      }
      if (route.children) await resolveLazyRoutes(route.children);
    }),
  );
}
await resolveLazyRoutes(appRoutes);

export function createTestQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } } });
}

export interface RenderAppOptions {
  path?: string;
  routes?: RouteObject[];
  /** user-event options, e.g. advanceTimers for fake timers. */
  userEventOptions?: Parameters<typeof userEvent.setup>[0];
}

export function renderApp({ path = '/', routes = appRoutes, userEventOptions }: RenderAppOptions = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createTestQueryClient();
  const user = userEvent.setup(userEventOptions);
  const view = render(
    <AppProviders queryClient={queryClient} autoRefresh={false} live={false}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient, user };
}
