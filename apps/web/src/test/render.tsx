// Renders the real app (routes, providers) in memory at a given path, for component tests.
import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '@/app/providers';
import { routes as appRoutes } from '@/app/router';

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
    <AppProviders queryClient={queryClient} autoRefresh={false}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient, user };
}
