import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import { createQueryClient } from './lib/query-client';
import './index.css';

// One query cache for the pages and the router's loaders (a car page's request starts early).
const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

// After a 401 the session is gone: go to sign in, and come back here afterwards.
function goToLogin() {
  const { pathname, search, hash } = router.state.location;
  void router.navigate('/login', { state: { from: { pathname, search, hash } } });
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders onSessionExpired={goToLogin} queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
