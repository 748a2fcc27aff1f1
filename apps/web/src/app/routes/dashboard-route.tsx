// The user dashboard, loaded on demand.
import { DashboardPage } from '@/features/dashboard/components/dashboard-page';

export function DashboardRoute() {
  return <DashboardPage />;
}
