// Everything the pages rely on: data queries, toasts and the session, in that order (the session
// shows toasts and clears cached queries), and the signed-in person's live stream (decision 083).
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { NotificationProvider } from '@/components/ui/toast';
import { AuthProvider } from '@/lib/auth';
import { LiveUpdates } from '@/lib/live/live-updates';
import { createQueryClient } from '@/lib/query-client';

export interface AppProvidersProps {
  children: ReactNode;
  onSessionExpired?: () => void;
  queryClient?: QueryClient;
  autoRefresh?: boolean;
  /** Open the signed-in person's live stream (decision 083); component tests that answer every request themselves turn it off. */
  live?: boolean;
  /** The page is hydrated from server HTML: the session is read after the first render (decision 044). */
  hydrating?: boolean;
}

export function AppProviders({ children, onSessionExpired, queryClient, autoRefresh, hydrating, live = true }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <NotificationProvider>
        <AuthProvider onSessionExpired={onSessionExpired} autoRefresh={autoRefresh} hydrating={hydrating}>
          {live ? <LiveUpdates /> : null}
          {children}
        </AuthProvider>
      </NotificationProvider>
    </QueryClientProvider>
  );
}
