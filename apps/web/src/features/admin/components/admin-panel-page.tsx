// /admin (document 3, Admin panel): the header with Refresh and the tabs, the selected one kept in
// the URL (?tab=dashboard). The route admits admins only (role, decisions.md section 1); the page
// also honours the seeds' own reading, "the username contains 'admin'", and shows document 3's
// Access Denied text to anyone else.
import { canOpenAdminPanel } from '@karoo/shared';
import { matchQuery, useIsFetching, useQueryClient, type Query } from '@tanstack/react-query';
import { clsx } from 'clsx';
import { RefreshCw, ShieldX } from 'lucide-react';
import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { useAuth } from '@/lib/auth';
import { ADMIN_TABS, adminTabFrom, type AdminTab } from './admin-tabs';
import { AnalyticsTab } from './analytics-tab';
import { AuditTab } from './audit-tab';
import { BookingsTab } from './bookings-tab';
import { CarsTab } from './cars-tab';
import { DashboardTab } from './dashboard-tab';
import { FinanceTab } from './finance-tab';
import { SettingsTab } from './settings-tab';
import { UsersTab } from './users-tab';

export const ACCESS_DENIED_TEXT = "You don't have permission to access the admin panel. Only administrators can view this page.";

export function AdminPanelPage() {
  const { user } = useAuth();
  if (!canOpenAdminPanel(user)) return <AccessDenied username={user?.username} />;
  return <AdminPanel />;
}

function AccessDenied({ username }: { username: string | undefined }) {
  return (
    <div className="mx-auto flex w-full max-w-lg flex-col items-center px-4 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-2xl bg-red-50 text-red-600">
        <ShieldX className="size-7" aria-hidden="true" />
      </span>
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-stone-900">Access Denied</h1>
      <p className="mt-2 text-stone-600">{ACCESS_DENIED_TEXT}</p>
      {username ? (
        <p className="mt-4 text-sm text-stone-500">
          Signed in as <span className="font-medium text-stone-800">@{username}</span>
        </p>
      ) : null}
    </div>
  );
}

function AdminPanel() {
  const baseId = useId();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = adminTabFrom(searchParams.get('tab'));
  const tabRefs = useRef(new Map<string, HTMLButtonElement>());
  const queryClient = useQueryClient();
  // Refresh reloads the queries of the tab on screen, nothing else.
  const ofTab = (query: Query) => tab.queryKeys.some((queryKey) => matchQuery({ queryKey }, query));
  const isRefreshing = useIsFetching({ predicate: ofTab }) > 0;

  const select = (next: AdminTab) => {
    // A tab's filters (the Cars tab's search, status, page) belong to it: another tab starts clean.
    setSearchParams({ tab: next.id }, { replace: true });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = ADMIN_TABS.findIndex((t) => t.id === tab.id);
    let next: number;
    if (event.key === 'ArrowRight') next = (index + 1) % ADMIN_TABS.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + ADMIN_TABS.length) % ADMIN_TABS.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = ADMIN_TABS.length - 1;
    else return;
    event.preventDefault();
    const target = ADMIN_TABS[next]!;
    select(target);
    tabRefs.current.get(target.id)?.focus();
  };

  // On a narrow screen the tab strip scrolls: keep the selected tab in view (opened by URL or chosen).
  useEffect(() => {
    tabRefs.current.get(tab.id)?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [tab.id]);

  return (
    // From 1280 px the panel takes the page's full width (max-w-7xl, as the navigation): its tables
    // have up to eight columns.
    <div className="mx-auto w-full min-w-0 max-w-6xl px-4 py-8 sm:px-6 xl:max-w-7xl">
      <header className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">Admin Panel</h1>
          <p className="mt-1 text-stone-600">Platform overview for Karoo administrators.</p>
        </div>
        <Button
          variant="secondary"
          icon={<RefreshCw className={clsx('size-4', isRefreshing && 'animate-spin')} aria-hidden="true" />}
          onClick={() => void queryClient.refetchQueries({ predicate: ofTab })}
          disabled={isRefreshing}
        >
          Refresh
        </Button>
      </header>

      <div role="tablist" aria-label="Admin sections" onKeyDown={onKeyDown} className="mb-6 flex gap-1 overflow-x-auto border-b border-stone-200">
        {ADMIN_TABS.map((item) => {
          const selected = item.id === tab.id;
          return (
            <button
              key={item.id}
              ref={(node) => {
                if (node) tabRefs.current.set(item.id, node);
                else tabRefs.current.delete(item.id);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${item.id}`}
              aria-selected={selected}
              aria-controls={`${baseId}-panel-${item.id}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(item)}
              className={clsx(
                '-mb-px shrink-0 border-b-2 px-3 py-3 text-sm font-semibold whitespace-nowrap transition-colors',
                'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 focus-visible:ring-inset',
                selected ? 'border-brand-600 text-brand-700' : 'border-transparent text-stone-500 hover:text-stone-800',
              )}
            >
              {item.label}
            </button>
          );
        })}
      </div>

      {/* Only the selected tab is mounted, so only its queries poll. */}
      <div role="tabpanel" id={`${baseId}-panel-${tab.id}`} aria-labelledby={`${baseId}-tab-${tab.id}`} className="focus-visible:outline-none">
        {tab.id === 'dashboard' ? <DashboardTab /> : null}
        {tab.id === 'users' ? <UsersTab /> : null}
        {tab.id === 'cars' ? <CarsTab /> : null}
        {tab.id === 'bookings' ? <BookingsTab /> : null}
        {tab.id === 'finance' ? <FinanceTab /> : null}
        {tab.id === 'analytics' ? <AnalyticsTab /> : null}
        {tab.id === 'audit' ? <AuditTab /> : null}
        {tab.id === 'settings' ? <SettingsTab /> : null}
      </div>
    </div>
  );
}
