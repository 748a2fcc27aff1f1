// The admin panel's Audit Log tab (issue 10): every administrator action, newest first, with who,
// when, what, the object, and the values before and after. Filtered and paged on the server; the
// search, the filters and the page are in the URL (DataTable).
import { AUDIT_TARGET_TYPES, type AuditEntry } from '@karoo/shared';
import { ScrollText } from 'lucide-react';
import { DataTable } from '@/components/data-table/data-table';
import { listColumnHelper, type ListColumn } from '@/components/data-table/list-columns';
import { useListSearchParams } from '@/components/data-table/use-list-search-params';
import { Badge } from '@/components/ui/badge';
import { formatDateTime } from '@/lib/format';
import { useAuditLog } from '../api/get-audit-log';

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
  'payment.refund_retried': 'Retried a failed refund',
  'breach.recorded': 'Recorded a security compromise',
};

const TARGET_LABELS: Record<(typeof AUDIT_TARGET_TYPES)[number], string> = {
  user: 'Users',
  car: 'Cars',
  booking: 'Bookings',
  settings: 'Settings',
  payout: 'Payouts',
  refund: 'Refunds',
  breach: 'Security compromises',
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

const column = listColumnHelper<AuditEntry>();

const ACTIONS = Object.keys(ACTION_LABELS);

// No cell opens anything, so the columns are the module's own (TanStack Table wants them stable).
const COLUMNS: ListColumn<AuditEntry>[] = [
  column.display({ id: 'when', header: 'When', meta: { cellClassName: 'whitespace-nowrap text-stone-700' }, cell: ({ row }) => formatDateTime(row.original.created_at) }),
  column.display({ id: 'admin', header: 'Admin', meta: { cellClassName: 'font-medium text-stone-900' }, cell: ({ row }) => `@${row.original.admin.username}` }),
  column.accessor('action', {
    id: 'action',
    header: 'Action',
    meta: { filter: { label: 'Action', allLabel: 'All actions', options: Object.entries(ACTION_LABELS).map(([value, label]) => ({ value, label })) } },
    cell: ({ row: { original: entry } }) => (
      <>
        <p className="font-medium text-stone-900">{ACTION_LABELS[entry.action] ?? entry.action}</p>
        {entry.reason ? <p className="mt-0.5 text-xs text-stone-500">Reason: {entry.reason}</p> : null}
      </>
    ),
  }),
  column.accessor('target_type', {
    id: 'object',
    header: 'Object',
    meta: { filter: { label: 'Object', allLabel: 'Everything', options: AUDIT_TARGET_TYPES.map((type) => ({ value: type, label: TARGET_LABELS[type] })) } },
    cell: ({ row: { original: entry } }) => (
      <>
        <Badge tone="neutral">{TARGET_LABELS[entry.target_type]}</Badge>
        {entry.target_label ? <p className="mt-1 font-mono text-xs text-stone-600">{entry.target_label}</p> : null}
      </>
    ),
  }),
  column.display({ id: 'changes', header: 'Before → after', meta: { cellClassName: 'text-xs' }, cell: ({ row }) => <Changes entry={row.original} /> }),
];

export function AuditTab() {
  const view = useListSearchParams(COLUMNS, { pageSize: AUDIT_PAGE_SIZE });
  const log = useAuditLog({ page: view.page, limit: view.pageSize, target: view.search, action: view.filter('action', ACTIONS), target_type: view.filter('object', AUDIT_TARGET_TYPES) });
  return (
    <DataTable
      title="Audit Log"
      icon={ScrollText}
      description="Every administrator action, with the values before and after."
      columns={COLUMNS}
      list={view}
      rows={log.data?.entries}
      total={log.data?.total}
      query={log}
      what="the audit log"
      noun={['action', 'actions']}
      empty="No administrator actions match these filters."
      search={{ label: 'Username, car or booking', placeholder: 'e.g. host_thabo or KR7XQ2M9PA' }}
      layout={{ kind: 'scroll', minWidth: 'min-w-[720px]' }}
      regionLabel="Audit log entries"
      rowTestId="audit-row"
    />
  );
}
