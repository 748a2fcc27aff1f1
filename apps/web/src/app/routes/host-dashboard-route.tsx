// The host dashboard, loaded on demand with the forms of its Manage Details panel.
import { HostDashboardPage } from '@/features/host/components/host-dashboard-page';

export function HostDashboardRoute() {
  return <HostDashboardPage />;
}
