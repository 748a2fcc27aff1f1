// The admin panel's Users tab (document 3, Users; issue 10): search (full name, username, email),
// status and role filters, counter cards (server aggregates over every user), and the table (User,
// Contact, Role, Status, Trips, Rating, Actions) paged on the server. Verify/Reject while pending,
// Manage Docs, Edit, Delete for non-admins (decisions.md section 4), Add User. The page on screen
// is refetched every 30 seconds. Verify is disabled, with the missing documents named beside it,
// until the required documents are in, and asks for confirmation (decision 033).
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
import { ChevronLeft, ChevronRight, FileText, Pencil, Star, Trash2, UserPlus, Users, X } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { initialOf } from '@/lib/format';
import { useAdminUsers, useDeleteUser, useSetVerification, type AdminUserFilters } from '../api/admin-users';
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

const selectClasses = 'h-10 rounded-xl border border-stone-300 bg-white px-3 text-sm';

export function UsersTab() {
  const notify = useNotification();
  const [filters, setFilters] = useState<AdminUserFilters>({ page: 1, limit: ADMIN_USERS_PAGE_SIZE });
  const [search, setSearch] = useState('');
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<UserWithDocuments | null>(null);
  const [rejecting, setRejecting] = useState<UserWithDocuments | null>(null);
  const [documentsOf, setDocumentsOf] = useState<UserWithDocuments | null>(null);
  const [deleting, setDeleting] = useState<UserWithDocuments | null>(null);
  const [verifying, setVerifying] = useState<UserWithDocuments | null>(null);
  const list = useAdminUsers(filters);
  const verification = useSetVerification();
  const removal = useDeleteUser();

  const total = list.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / ADMIN_USERS_PAGE_SIZE));
  const choose = (patch: Partial<AdminUserFilters>) => setFilters((current) => ({ ...current, ...patch, page: 1 }));
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    choose({ search: search.trim() || undefined });
  };

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
          <div key={counter.key} className="rounded-2xl border border-stone-200/80 bg-white p-4 shadow-card">
            <dt className="text-xs font-semibold tracking-wide text-stone-500 uppercase">{counter.label}</dt>
            <dd className={`mt-1 text-2xl font-bold ${counter.tone}`}>
              {list.data?.counts ? list.data.counts[counter.key].toLocaleString('en-ZA') : <span className="inline-block h-7 w-10 animate-pulse rounded bg-stone-200" />}
            </dd>
          </div>
        ))}
      </dl>

      <section aria-labelledby="users-heading" className="rounded-2xl border border-stone-200 bg-white shadow-sm">
        <header className="flex flex-col gap-4 border-b border-stone-100 p-5 lg:flex-row lg:items-end lg:justify-between">
          <div>
            <h2 id="users-heading" className="flex items-center gap-2 text-lg font-semibold text-stone-900">
              <Users className="size-5 text-brand-600" aria-hidden="true" /> Users
            </h2>
            <p className="mt-1 text-sm text-stone-600">Verify new users, read their documents and manage accounts.</p>
          </div>
          <div className="flex flex-wrap items-end gap-3">
            <form onSubmit={onSearch} className="flex w-full items-end gap-2 sm:w-auto" role="search">
              <label className="min-w-0 flex-1 text-sm sm:flex-none">
                <span className="mb-1 block font-medium text-stone-700">Search users</span>
                <input
                  type="search"
                  className="h-10 w-full rounded-xl border border-stone-300 px-3 text-sm sm:w-56"
                  value={search}
                  onChange={(e) => setSearch(e.target.value)}
                  placeholder="Name, username or email"
                />
              </label>
              <Button type="submit" variant="secondary">
                Search
              </Button>
            </form>
            <label className="text-sm">
              <span className="mb-1 block font-medium text-stone-700">Status</span>
              <select className={selectClasses} value={filters.status ?? ''} onChange={(e) => choose({ status: (e.target.value || undefined) as AdminUserFilters['status'] })}>
                <option value="">All statuses</option>
                {VERIFICATION_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {USER_STATUS_LABELS[status]}
                  </option>
                ))}
              </select>
            </label>
            <label className="text-sm">
              <span className="mb-1 block font-medium text-stone-700">Role</span>
              <select className={selectClasses} value={filters.role ?? ''} onChange={(e) => choose({ role: (e.target.value || undefined) as AdminUserFilters['role'] })}>
                <option value="">All roles</option>
                {ROLES.map((role) => (
                  <option key={role} value={role}>
                    {ROLE_LABELS[role]}
                  </option>
                ))}
              </select>
            </label>
            <Button icon={<UserPlus className="size-4" aria-hidden="true" />} onClick={() => setAdding(true)}>
              Add User
            </Button>
          </div>
        </header>

        {list.isError && !list.data ? (
          <div className="p-5">
            <Alert tone="danger" title="Unable to load the users" role="alert">
              {messageOf(list.error, 'There was an error loading the users. Please try again.')}
            </Alert>
            <Button className="mt-3" variant="secondary" onClick={() => void list.refetch()}>
              Try again
            </Button>
          </div>
        ) : list.isPending ? (
          <div className="space-y-3 p-5" role="status" aria-label="Loading the users">
            {[0, 1, 2, 3].map((i) => (
              <div key={i} className="h-12 animate-pulse rounded-xl bg-stone-100" />
            ))}
          </div>
        ) : list.data.users.length === 0 ? (
          <p className="p-5 text-sm text-stone-500">No users match this search and these filters.</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full min-w-[1040px] text-left text-sm">
              <thead className="bg-stone-50 text-xs font-semibold tracking-wide text-stone-500 uppercase">
                <tr>
                  <th scope="col" className="px-5 py-3">User</th>
                  <th scope="col" className="min-w-56 px-5 py-3">Contact</th>
                  <th scope="col" className="px-5 py-3">Role</th>
                  <th scope="col" className="px-5 py-3">Status</th>
                  <th scope="col" className="px-5 py-3">Trips</th>
                  <th scope="col" className="px-5 py-3">Rating</th>
                  <th scope="col" className="px-5 py-3">Actions</th>
                </tr>
              </thead>
              <tbody className="divide-y divide-stone-100">
                {list.data.users.map((user) => (
                  <tr key={user.id} data-testid="user-row" className="align-top">
                    <td className="px-5 py-3">
                      <div className="flex items-center gap-3">
                        <span aria-hidden="true" className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand-50 font-semibold text-brand-700">
                          {initialOf(user.full_name || user.username)}
                        </span>
                        <div className="min-w-0">
                          <p className="font-medium text-stone-900">{user.full_name}</p>
                          <p className="text-xs text-stone-500">@{user.username}</p>
                        </div>
                      </div>
                    </td>
                    <td className="px-5 py-3 text-stone-700">
                      <p className="[overflow-wrap:anywhere]">{user.email}</p>
                      <p className="text-xs text-stone-500">{user.phone_number ?? '—'}</p>
                    </td>
                    <td className="px-5 py-3">
                      <Badge tone={ROLE_TONES[user.role]}>{ROLE_LABELS[user.role]}</Badge>
                    </td>
                    <td className="px-5 py-3">
                      <Badge tone={STATUS_TONES[user.verification_status]}>{USER_STATUS_LABELS[user.verification_status]}</Badge>
                    </td>
                    <td className="px-5 py-3 text-stone-700">{user.total_trips}</td>
                    <td className="px-5 py-3 text-stone-700">
                      {user.rating === null ? (
                        '—'
                      ) : (
                        <span className="inline-flex items-center gap-1">
                          <Star className="size-3.5 fill-amber-400 text-amber-400" aria-hidden="true" />
                          {user.rating.toFixed(1)}
                        </span>
                      )}
                    </td>
                    <td className="px-5 py-3">
                      <div className="flex flex-wrap gap-1.5">
                        {user.verification_status === 'pending_verification' ? (
                          <>
                            <VerifyButton
                              name={user.username}
                              blocker={userVerificationBlocker(user.documents)}
                              loading={verification.isPending && verification.variables?.username === user.username}
                              onClick={() => setVerifying(user)}
                            />
                            <Button size="sm" variant="danger-outline" icon={<X className="size-4" aria-hidden="true" />} aria-label={`Reject ${user.username}`} onClick={() => setRejecting(user)}>
                              Reject
                            </Button>
                          </>
                        ) : null}
                        <Button size="sm" variant="secondary" icon={<FileText className="size-4" aria-hidden="true" />} aria-label={`Manage Docs of ${user.username}`} onClick={() => setDocumentsOf(user)}>
                          Manage Docs
                        </Button>
                        <Button size="sm" variant="ghost" icon={<Pencil className="size-4" aria-hidden="true" />} aria-label={`Edit ${user.username}`} onClick={() => setEditing(user)}>
                          Edit
                        </Button>
                        {user.role !== 'admin' ? (
                          <Button size="sm" variant="ghost" className="text-red-600" icon={<Trash2 className="size-4" aria-hidden="true" />} aria-label={`Delete ${user.username}`} onClick={() => setDeleting(user)}>
                            Delete
                          </Button>
                        ) : null}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}

        <footer className="flex items-center justify-between gap-3 border-t border-stone-100 px-5 py-3 text-sm text-stone-600">
          <span>
            {total.toLocaleString('en-ZA')} {total === 1 ? 'user' : 'users'} · page {filters.page} of {pages}
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
        description={deleting ? `${deleting.full_name} (@${deleting.username}) can no longer sign in; their cars are removed and unpaid bookings cancelled. Paid and completed bookings, invoices and reviews are kept for the records; the rest of their personal data is removed.` : undefined}
        confirmLabel="Delete user"
        loadingLabel="Deleting…"
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}
