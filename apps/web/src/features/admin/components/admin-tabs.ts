// The admin panel's tabs. Document 3 names seven (Dashboard, Users, Cars, Bookings, Finance,
// Analytics, Settings); each joins this list when it is built, with the queries Refresh reloads.
// The Audit Log tab is the panel's own addition.
import type { QueryKey } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

export interface AdminTab {
  id: string;
  label: string;
  /** The queries of this tab: Refresh reloads these, and only these. */
  queryKeys: QueryKey[];
}

export const ADMIN_TABS = [
  { id: 'dashboard', label: 'Dashboard', queryKeys: [queryKeys.admin.overview(), queryKeys.admin.mailAll()] },
  { id: 'users', label: 'Users', queryKeys: [queryKeys.admin.usersAll()] },
  // The Cars tab's counters are the overview's aggregate.
  { id: 'cars', label: 'Cars', queryKeys: [queryKeys.admin.carsAll(), queryKeys.admin.overview()] },
  { id: 'bookings', label: 'Bookings', queryKeys: [queryKeys.admin.bookingsAll()] },
  { id: 'finance', label: 'Finance', queryKeys: [queryKeys.admin.financeAll()] },
  { id: 'analytics', label: 'Analytics', queryKeys: [queryKeys.admin.analyticsAll()] },
  // Beyond document 3: every administrator action, with the values before and after (issue 10).
  { id: 'audit', label: 'Audit Log', queryKeys: [queryKeys.admin.auditAll()] },
  { id: 'settings', label: 'Settings', queryKeys: [queryKeys.settings] },
] as const satisfies readonly AdminTab[];

export type AdminTabId = (typeof ADMIN_TABS)[number]['id'];

/** The tab named in `?tab=`, or the first tab when the name is missing or unknown. */
export function adminTabFrom(value: string | null): AdminTab {
  return ADMIN_TABS.find((tab) => tab.id === value) ?? ADMIN_TABS[0];
}
