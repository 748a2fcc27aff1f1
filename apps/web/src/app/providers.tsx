// Everything the pages rely on: data queries, toasts and the session, in that order (the session
// shows toasts and clears cached queries).
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { NotificationProvider } from '@/components/ui/toast';
import { AuthProvider } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';

export interface AppProvidersProps {
  children: ReactNode;
  onSessionExpired?: () => void;
  queryClient?: QueryClient;
  autoRefresh?: boolean;
}

export function AppProviders({ children, onSessionExpired, queryClient, autoRefresh }: AppProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <NotificationProvider>
        <AuthProvider onSessionExpired={onSessionExpired} autoRefresh={autoRefresh}>
          {children}
        </AuthProvider>
      </NotificationProvider>
    </QueryClientProvider>
  );
}
