// The admin panel's Users tab (document 3, Users; issue 10): search (full name, username, email),
// status and role filters, counter cards (server aggregates over every user), and the table (User,
// Contact, Role, Status, Trips, Rating, Actions) paged on the server; the search, the filters and
// the page are in the URL (DataTable). Verify/Reject while pending, Manage Docs, Edit, Delete for
// non-admins (decisions.md section 4), Add User. The page on screen is refetched every 30 seconds.
// Verify is disabled, with the missing documents named beside it, until the required documents
// are in, and asks for confirmation (decision 033).
import {
  ADMIN_USERS_PAGE_SIZE,
  DOCUMENT_LABELS,
  REQUIRED_DOCUMENT_TYPES,
  ROLES,
  userVerificationBlocker,
  VERIFICATION_STATUSES,
  type AdminUserCounts,
  type Role,
  type UserWithDocuments,
  type VerificationStatus,
} from '@karoo/shared';
import { FileText, Pencil, Star, Trash2, UserPlus, Users, X } from 'lucide-react';
import { useMemo, useState } from 'react';
import { DataTable } from '@/components/data-table/data-table';
import { listColumnHelper, type ListColumn } from '@/components/data-table/list-columns';
import { useListSearchParams } from '@/components/data-table/use-list-search-params';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { StatCard } from '@/components/ui/stat-card';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { initialOf } from '@/lib/format';
import { useAdminUsers, useDeleteUser, useSetVerification } from '../api/admin-users';
import { CorrectionRequests } from './correction-requests';
import { SendNews } from './send-news';
import { AddUserDialog, EditUserDialog, RejectUserDialog, ROLE_LABELS, UserDocumentsDialog } from './user-dialogs';
import { VerifyButton } from './verify-action';

const ROLE_TONES: Record<Role, BadgeTone> = { admin: 'brand', host: 'info', customer: 'neutral' };
export const USER_STATUS_LABELS: Record<VerificationStatus, string> = {
  verified: 'Verified',
  pending_verification: 'Pending verification',
  pending_upload: 'Documents needed',
  rejected: 'Rejected',
};
const STATUS_TONES: Record<VerificationStatus, BadgeTone> = {
  verified: 'success',
  pending_verification: 'warning',
  pending_upload: 'neutral',
  rejected: 'danger',
};

const COUNTERS: { key: keyof AdminUserCounts; label: string; tone: string }[] = [
  { key: 'total', label: 'Total', tone: 'text-stone-900' },
  { key: 'pending_verification', label: 'Pending', tone: 'text-amber-600' },
  { key: 'verified', label: 'Verified', tone: 'text-emerald-600' },
  { key: 'rejected', label: 'Rejected', tone: 'text-red-600' },
  { key: 'pending_upload', label: 'Documents needed', tone: 'text-stone-600' },
  { key: 'admins', label: 'Admins', tone: 'text-brand-700' },
  { key: 'hosts', label: 'Hosts', tone: 'text-sky-700' },
  { key: 'customers', label: 'Customers', tone: 'text-stone-700' },
];

/** What a row's buttons open (the tab's dialogs), and whose verification is being sent. */
interface UserRowActions {
  verifyingUsername: string | undefined;
  verify: (user: UserWithDocuments) => void;
  reject: (user: UserWithDocuments) => void;
  manageDocs: (user: UserWithDocuments) => void;
  edit: (user: UserWithDocuments) => void;
  remove: (user: UserWithDocuments) => void;
}

const column = listColumnHelper<UserWithDocuments>();

function userColumns(actions: UserRowActions): ListColumn<UserWithDocuments>[] {
  return [
    column.display({
      id: 'user',
      header: 'User',
      cell: ({ row: { original: user } }) => (
        <div className="flex items-center gap-3">
          <span aria-hidden="true" className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 font-semibold text-brand-700">
            {initialOf(user.full_name || user.username)}
          </span>
          <div className="min-w-0">
            <p className="font-medium text-stone-900">{user.full_name}</p>
            <p className="text-xs text-stone-500">@{user.username}</p>
          </div>
        </div>
      ),
    }),
    column.display({
      id: 'contact',
      header: 'Contact',
      meta: { headerClassName: 'min-w-56', cellClassName: 'text-stone-700' },
      cell: ({ row: { original: user } }) => (
        <>
          <p className="[overflow-wrap:anywhere]">{user.email}</p>
          <p className="text-xs text-stone-500">{user.phone_number ?? '—'}</p>
        </>
      ),
    }),
    column.accessor('role', {
      id: 'role',
      header: 'Role',
      meta: { filter: { label: 'Role', allLabel: 'All roles', options: ROLES.map((role) => ({ value: role, label: ROLE_LABELS[role] })) } },
      cell: ({ row: { original: user } }) => <Badge tone={ROLE_TONES[user.role]}>{ROLE_LABELS[user.role]}</Badge>,
    }),
    column.accessor('verification_status', {
      id: 'status',
      header: 'Status',
      meta: { filter: { label: 'Status', allLabel: 'All statuses', options: VERIFICATION_STATUSES.map((status) => ({ value: status, label: USER_STATUS_LABELS[status] })) } },
      cell: ({ row: { original: user } }) => <Badge tone={STATUS_TONES[user.verification_status]}>{USER_STATUS_LABELS[user.verification_status]}</Badge>,
    }),
    column.display({ id: 'trips', header: 'Trips', meta: { cellClassName: 'text-stone-700' }, cell: ({ row }) => row.original.total_trips }),
    column.display({
      id: 'rating',
      header: 'Rating',
      meta: { cellClassName: 'text-stone-700' },
      cell: ({ row: { original: user } }) =>
        user.rating === null ? (
          '—'
        ) : (
          <span className="inline-flex items-center gap-1">
            <Star className="size-3.5 fill-amber-400 text-amber-400" aria-hidden="true" />
            {user.rating.toFixed(1)}
          </span>
        ),
    }),
    column.display({
      id: 'actions',
      header: 'Actions',
      cell: ({ row: { original: user } }) => (
        <div className="flex flex-wrap gap-1.5">
          {user.verification_status === 'pending_verification' ? (
            <>
              <VerifyButton
                name={user.username}
                blocker={userVerificationBlocker(user.documents)}
                loading={actions.verifyingUsername === user.username}
                onClick={() => actions.verify(user)}
              />
              <Button size="sm" variant="danger-outline" icon={<X className="size-4" aria-hidden="true" />} aria-label={`Reject ${user.username}`} onClick={() => actions.reject(user)}>
                Reject
              </Button>
            </>
          ) : null}
          <Button size="sm" variant="secondary" icon={<FileText className="size-4" aria-hidden="true" />} aria-label={`Manage Docs of ${user.username}`} onClick={() => actions.manageDocs(user)}>
            Manage Docs
          </Button>
          <Button size="sm" variant="ghost" icon={<Pencil className="size-4" aria-hidden="true" />} aria-label={`Edit ${user.username}`} onClick={() => actions.edit(user)}>
            Edit
          </Button>
          {user.role !== 'admin' ? (
            <Button size="sm" variant="ghost" className="text-red-600" icon={<Trash2 className="size-4" aria-hidden="true" />} aria-label={`Delete ${user.username}`} onClick={() => actions.remove(user)}>
              Delete
            </Button>
          ) : null}
        </div>
      ),
    }),
  ];
}

export function UsersTab() {
  const notify = useNotification();
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserWithDocuments | null>(null);
  const [rejecting, setRejecting] = useState<UserWithDocuments | null>(null);
  const [documentsOf, setDocumentsOf] = useState<UserWithDocuments | null>(null);
  const [deleting, setDeleting] = useState<UserWithDocuments | null>(null);
  const [verifying, setVerifying] = useState<UserWithDocuments | null>(null);
  const verification = useSetVerification();
  const removal = useDeleteUser();
  const verifyingUsername = verification.isPending ? verification.variables?.username : undefined;
  const columns = useMemo(
    () => userColumns({ verifyingUsername, verify: setVerifying, reject: setRejecting, manageDocs: setDocumentsOf, edit: setEditing, remove: setDeleting }),
    [verifyingUsername],
  );
  const view = useListSearchParams(columns, { pageSize: ADMIN_USERS_PAGE_SIZE });
  const list = useAdminUsers({
    page: view.page,
    limit: view.pageSize,
    search: view.search,
    status: view.filter('status', VERIFICATION_STATUSES),
    role: view.filter('role', ROLES),
  });

  const verify = async () => {
    if (!verifying) return;
    const user = verifying;
    try {
      await verification.mutateAsync({ username: user.username, body: { verification_status: 'verified' } });
      notify.success('User verified', `@${user.username} now has full access.`);
    } catch (error) {
      notify.error('Verification Failed', messageOf(error, 'Failed to update user verification status.'));
      throw error;
    }
  };

  const remove = async () => {
    if (!deleting) return;
    try {
      await removal.mutateAsync(deleting);
      notify.success('User deleted', `@${deleting.username} was deleted.`);
    } catch (error) {
      notify.error('Delete Failed', messageOf(error, 'Failed to delete user. Please try again.'));
      throw error;
    }
  };

  return (
    <div className="space-y-6">
      <dl aria-label="User counters" className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {COUNTERS.map((counter) => (
          <StatCard key={counter.key} label={counter.label} tone={counter.tone} value={list.data?.counts?.[counter.key]} />
        ))}
      </dl>

      <DataTable
        title="Users"
        icon={Users}
        description="Verify new users, read their documents and manage accounts."
        columns={columns}
        list={view}
        rows={list.data?.users}
        total={list.data?.total}
        query={list}
        what="the users"
        noun={['user', 'users']}
        empty="No users match this search and these filters."
        search={{ label: 'Search users', placeholder: 'Name, username or email' }}
        actions={
          <Button icon={<UserPlus className="size-4" aria-hidden="true" />} onClick={() => setAdding(true)}>
            Add User
          </Button>
        }
        layout={{ kind: 'scroll', minWidth: 'min-w-[1040px]' }}
        regionLabel="Users"
        rowTestId="user-row"
      />

      <CorrectionRequests />
      <SendNews />

      <AddUserDialog open={adding} onClose={() => setAdding(false)} />
      <EditUserDialog user={editing} onClose={() => setEditing(null)} />
      <RejectUserDialog user={rejecting} onClose={() => setRejecting(null)} />
      <UserDocumentsDialog
        user={documentsOf}
        onClose={() => setDocumentsOf(null)}
        onVerify={(user) => {
          setDocumentsOf(null);
          setVerifying(user);
        }}
      />
      <ConfirmDialog
        open={verifying !== null}
        tone="success"
        title="Verify this user?"
        description={
          verifying
            ? `${verifying.full_name} (@${verifying.username}) gets full access: they can book cars and list their own. On file: ${REQUIRED_DOCUMENT_TYPES.map((type) => DOCUMENT_LABELS[type]).join(', ')}.`
            : undefined
        }
        confirmLabel="Verify user"
        loadingLabel="Verifying…"
        onConfirm={verify}
        onClose={() => setVerifying(null)}
      />
      <ConfirmDialog
        open={deleting !== null}
        tone="danger"
        title="Delete this user?"
        description={deleting ? `${deleting.full_name} (@${deleting.username}) can no longer sign in; their cars are removed and unpaid bookings cancelled. Their personal data is erased everywhere, as if they had deleted the account themselves, and they are told by email. Bookings, payments, invoices and reviews stay for the records under “Former member”. Refused while a paid trip is under way or to come, money is still owed, or a damage report is open.` : undefined}
        confirmLabel="Delete user"
        loadingLabel="Deleting…"
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
