import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { AppProviders } from './app/providers';
import { createAppRouter } from './app/router';
import './index.css';

const router = createAppRouter();

// After a 401 the session is gone: go to sign in, and come back here afterwards.
function goToLogin() {
  const { pathname, search, hash } = router.state.location;
  void router.navigate('/login', { state: { from: { pathname, search, hash } } });
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppProviders onSessionExpired={goToLogin}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
