// The admin panel's Audit Log tab (issue 10): every administrator action, newest first, with who,
// when, what, the object, and the values before and after. Filtered and paged on the server.
import { AUDIT_TARGET_TYPES, type AuditEntry } from '@karoo/shared';
import { ChevronLeft, ChevronRight, ScrollText } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ScrollRegion } from '@/components/ui/scroll-region';
import { messageOf } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useAuditLog, type AuditFilters } from '../api/get-audit-log';

export const AUDIT_PAGE_SIZE = 25;

/** What each recorded action reads as. */
export const ACTION_LABELS: Record<string, string> = {
  'user.verified': 'Verified a user',
  'user.rejected': 'Rejected a user',
  'user.created': 'Created a user',
  'user.updated': 'Edited a user',
  'user.deleted': 'Deleted a user',
  'car.verified': 'Verified a car',
  'car.rejected': 'Rejected a car',
  'car.registration_verified': 'Verified a registration document',
  'car.registration_rejected': 'Rejected a registration document',
  'car.updated': 'Edited a car',
  'car.removed': 'Deleted a car',
  'car.force_returned': 'Forced a return',
  'booking.confirmed': 'Approved a booking',
  'booking.rejected': 'Rejected a booking',
  'booking.cancelled': 'Cancelled a booking',
  'settings.changed': 'Changed the settings',
  'payout.updated': 'Recorded a payout',
};

const TARGET_LABELS: Record<(typeof AUDIT_TARGET_TYPES)[number], string> = {
  user: 'Users',
  car: 'Cars',
  booking: 'Bookings',
  settings: 'Settings',
  payout: 'Payouts',
};

const show = (value: unknown) => (value === null || value === undefined ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value));

/** "status: available → maintenance" for each changed value. */
function Changes({ entry }: { entry: AuditEntry }) {
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])];
  if (keys.length === 0) return <span className="text-stone-500">—</span>;
  return (
    <ul className="space-y-0.5">
      {keys.map((key) => (
        <li key={key} className="break-words">
          <span className="font-medium text-stone-700">{key.replace(/_/g, ' ')}</span>:{' '}
          {entry.before && key in entry.before ? (
            <>
              <span className="text-stone-500 line-through decoration-stone-300">{show(entry.before[key])}</span> →{' '}
            </>
          ) : null}
          <span className="text-stone-900">{entry.after && key in entry.after ? show(entry.after[key]) : '—'}</span>
        </li>
      ))}
    </ul>
  );
}

export function AuditTab() {
  const [filters, setFilters] = useState<AuditFilters>({ page: 1, limit: AUDIT_PAGE_SIZE });
  const [target, setTarget] = useState('');
  const log = useAuditLog(filters);
  const total = log.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));

  const choose = (patch: Partial<AuditFilters>) => setFilters((current) => ({ ...current, ...patch, page: 1 }));
  const search = (event: FormEvent) => {
    event.preventDefault();
    choose({ target: target.trim() || undefined });
  };

  return (
    <section aria-labelledby="audit-heading" className="rounded-2xl border border-stone-200 bg-white shadow-sm">
      <header className="flex flex-col gap-4 border-b border-stone-100 p-5 lg:flex-row lg:items-end lg:justify-between">
        <div>
          <h2 id="audit-heading" className="flex items-center gap-2 text-lg font-semibold text-stone-900">
            <ScrollText className="size-5 text-brand-600" aria-hidden="true" /> Audit Log
          </h2>
          <p className="mt-1 text-sm text-stone-600">Every administrator action, with the values before and after.</p>
        </div>
        <div className="flex flex-wrap items-end gap-3">
          <label className="text-sm">
            <span className="mb-1 block font-medium text-stone-700">Action</span>
            <select
              className="h-10 rounded-xl border border-stone-300 bg-white px-3 text-sm"
              value={filters.action ?? ''}
              onChange={(e) => choose({ action: e.target.value || undefined })}
            >
              <option value="">All actions</option>
              {Object.entries(ACTION_LABELS).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            <span className="mb-1 block font-medium text-stone-700">Object</span>
            <select
              className="h-10 rounded-xl border border-stone-300 bg-white px-3 text-sm"
              value={filters.target_type ?? ''}
              onChange={(e) => choose({ target_type: (e.target.value || undefined) as AuditFilters['target_type'] })}
            >
              <option value="">Everything</option>
              {AUDIT_TARGET_TYPES.map((type) => (
                <option key={type} value={type}>
                  {TARGET_LABELS[type]}
                </option>
              ))}
            </select>
          </label>
          <form onSubmit={search} className="flex w-full items-end gap-2 sm:w-auto" role="search">
            <label className="min-w-0 flex-1 text-sm sm:flex-none">
              <span className="mb-1 block font-medium text-stone-700">Username, car or booking</span>
              <input
                className="h-10 w-full rounded-xl border border-stone-300 px-3 text-sm sm:w-56"
                value={target}
                onChange={(e) => setTarget(e.target.value)}
                placeholder="e.g. host_thabo or KR7XQ2M9PA"
              />
            </label>
            <Button type="submit" variant="secondary">
              Search
            </Button>
          </form>
        </div>
      </header>

      {log.isError ? (
        <div className="p-5">
          <Alert tone="danger" title="Unable to load the audit log" role="alert">
            {messageOf(log.error, 'There was an error loading the audit log. Please try again.')}
          </Alert>
          <Button className="mt-3" variant="secondary" onClick={() => void log.refetch()}>
            Try again
          </Button>
        </div>
      ) : log.isPending ? (
        <div className="space-y-3 p-5" role="status" aria-label="Loading the audit log">
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="h-12 animate-pulse rounded-xl bg-stone-100" />
          ))}
        </div>
      ) : log.data.entries.length === 0 ? (
        <p className="p-5 text-sm text-stone-500">No administrator actions match these filters.</p>
      ) : (
        <ScrollRegion label="Audit log entries">
          <table className="w-full min-w-[720px] text-left text-sm">
            <thead className="bg-stone-50 text-xs font-semibold tracking-wide text-stone-500 uppercase">
              <tr>
                <th scope="col" className="px-5 py-3">When</th>
                <th scope="col" className="px-5 py-3">Admin</th>
                <th scope="col" className="px-5 py-3">Action</th>
                <th scope="col" className="px-5 py-3">Object</th>
                <th scope="col" className="px-5 py-3">Before → after</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {log.data.entries.map((entry) => (
                <tr key={entry.id} data-testid="audit-row" className="align-top">
                  <td className="px-5 py-3 whitespace-nowrap text-stone-700">{formatDateTime(entry.created_at)}</td>
                  <td className="px-5 py-3 font-medium text-stone-900">@{entry.admin.username}</td>
                  <td className="px-5 py-3">
                    <p className="font-medium text-stone-900">{ACTION_LABELS[entry.action] ?? entry.action}</p>
                    {entry.reason ? <p className="mt-0.5 text-xs text-stone-500">Reason: {entry.reason}</p> : null}
                  </td>
                  <td className="px-5 py-3">
                    <Badge tone="neutral">{TARGET_LABELS[entry.target_type]}</Badge>
                    {entry.target_label ? <p className="mt-1 font-mono text-xs text-stone-600">{entry.target_label}</p> : null}
                  </td>
                  <td className="px-5 py-3 text-xs">
                    <Changes entry={entry} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}

      <footer className="flex items-center justify-between gap-3 border-t border-stone-100 px-5 py-3 text-sm text-stone-600">
        <span>
          {total} {total === 1 ? 'action' : 'actions'} · page {filters.page} of {pages}
        </span>
        <div className="flex gap-2">
          <Button
            variant="secondary"
            size="sm"
            icon={<ChevronLeft className="size-4" aria-hidden="true" />}
            disabled={filters.page <= 1}
            onClick={() => setFilters((current) => ({ ...current, page: current.page - 1 }))}
          >
            Previous
          </Button>
          <Button
            variant="secondary"
            size="sm"
            icon={<ChevronRight className="size-4" aria-hidden="true" />}
            disabled={filters.page >= pages}
            onClick={() => setFilters((current) => ({ ...current, page: current.page + 1 }))}
          >
            Next
          </Button>
        </div>
      </footer>
    </section>
  );
}
