// The Users tab's dialogs (document 3, Users): Reject with a reason the user is told, Manage Docs
// (the four documents, read-only, view and download each or all; which are required, what is
// missing, and Verify for a pending user, disabled with the reason until they are in: decision
// 033), Add User (starts pending_upload) and Edit User (profile fields and role). Each shows its own
// toasts; failures keep the dialog open.
import { zodResolver } from '@hookform/resolvers/zod';
import {
  adminEditUserFormSchema,
  createUserBodySchema,
  DOCUMENT_LABELS,
  DOCUMENT_TYPES,
  REQUIRED_DOCUMENT_TYPES,
  ROLES,
  userVerificationBlocker,
  type AdminEditUserForm,
  type CreateUserBody,
  type DocumentType,
  type Role,
  type UserWithDocuments,
} from '@karoo/shared';
import { CheckCircle2, Download, ExternalLink, FileX2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm, type FieldValues, type Path, type UseFormSetError } from 'react-hook-form';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { downloadUserDocument, openUserDocument, useCreateUser, useSetVerification, useUpdateUser } from '../api/admin-users';
import { VerifyButton } from './verify-action';

export const ROLE_LABELS: Record<Role, string> = { admin: 'Admin', host: 'Host', customer: 'Customer' };
/** Document 3, section 9: bulk download waits 2 seconds between files. */
export const BULK_DOWNLOAD_GAP_MS = 2000;

const selectClasses = 'h-[46px] w-full rounded-xl border border-stone-300 bg-white px-3 text-[15px] text-stone-900';

/** Puts the server's field errors (400, 409) on the form's fields. */
function applyServerErrors<T extends FieldValues>(error: unknown, fields: readonly string[], setError: UseFormSetError<T>): void {
  if (!isApiError(error)) return;
  for (const [name, message] of Object.entries(error.errors)) {
    if (fields.includes(name)) setError(name as Path<T>, { type: 'server', message });
  }
}

// ---- Reject ----
export function RejectUserDialog({ user, onClose }: { user: UserWithDocuments | null; onClose: () => void }) {
  const notify = useNotification();
  const mutation = useSetVerification();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const close = () => {
    setReason('');
    setError(undefined);
    onClose();
  };

  const submit = async () => {
    if (!user) return;
    const notes = reason.trim();
    if (!notes) {
      setError('Please give a reason: the user is told it.');
      return;
    }
    try {
      await mutation.mutateAsync({ username: user.username, body: { verification_status: 'rejected', notes } });
      notify.success('User rejected', `@${user.username} was told why.`);
      close();
    } catch (failure) {
      notify.error('Verification Failed', messageOf(failure, 'Failed to update user verification status.'));
    }
  };

  return (
    <Dialog
      open={user !== null}
      onClose={close}
      title="Reject verification"
      description={user ? `Tell ${user.full_name} (@${user.username}) what to fix. They can upload their documents again.` : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button variant="danger" onClick={() => void submit()} loading={mutation.isPending}>
            Reject user
          </Button>
        </>
      }
    >
      <label className="block text-sm">
        <span className="mb-1.5 block font-medium text-stone-700">Reason (required)</span>
        <textarea
          className="min-h-24 w-full rounded-xl border border-stone-300 px-3.5 py-2.5 text-[15px]"
          value={reason}
          maxLength={1000}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            setError(undefined);
          }}
          placeholder="e.g. The ID photo is blurry"
        />
      </label>
      {error ? (
        <p className="mt-1.5 text-sm text-red-600" role="alert">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}

// ---- Manage Docs ----
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function UserDocumentsDialog({ user, onClose, onVerify }: { user: UserWithDocuments | null; onClose: () => void; onVerify: (user: UserWithDocuments) => void }) {
  const notify = useNotification();
  const [downloadingAll, setDownloadingAll] = useState(false);
  const uploaded = user ? DOCUMENT_TYPES.filter((type) => user.documents[type]) : [];
  const isPending = user?.verification_status === 'pending_verification';
  const blocker = user ? userVerificationBlocker(user.documents) : null;
  const summaryId = useId();

  const download = async (type: DocumentType) => {
    if (!user) return;
    try {
      await downloadUserDocument(user.username, type);
    } catch (error) {
      notify.error('Download Failed', messageOf(error, 'Failed to download document'));
    }
  };
  const view = (type: DocumentType) => {
    if (!user) return;
    openUserDocument(user.username, type).catch((error: unknown) => notify.error('Opening Failed', messageOf(error, 'Failed to open user documents. Please try again.')));
  };
  const downloadAll = async () => {
    if (!user) return;
    if (uploaded.length === 0) {
      notify.warning('No Documents Found', `@${user.username} has not uploaded any documents.`);
      return;
    }
    setDownloadingAll(true);
    notify.success('Download Started', `${uploaded.length} ${uploaded.length === 1 ? 'document' : 'documents'} of @${user.username}.`);
    try {
      for (const [index, type] of uploaded.entries()) {
        if (index > 0) await wait(BULK_DOWNLOAD_GAP_MS);
        await downloadUserDocument(user.username, type);
      }
    } catch (error) {
      notify.error('Download Failed', messageOf(error, 'Failed to download user documents. Please try again.'));
    } finally {
      setDownloadingAll(false);
    }
  };

  return (
    <Dialog
      open={user !== null}
      onClose={onClose}
      title="User Documents"
      description={user ? `${user.full_name} (@${user.username}). Read-only: only the user uploads documents.` : undefined}
      footer={
        // Three buttons do not fit a phone's width in one line: they wrap, right-aligned.
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          <Button variant={isPending ? 'secondary' : 'primary'} icon={<Download className="size-4" aria-hidden="true" />} onClick={() => void downloadAll()} loading={downloadingAll}>
            Download all
          </Button>
          {user && isPending ? <VerifyButton name={user.username} blocker={blocker} reasonShownAt={summaryId} onClick={() => onVerify(user)} /> : null}
        </div>
      }
    >
      {user && isPending ? (
        blocker ? (
          <Alert tone="warning" title="Not ready to verify" className="mb-3">
            <span id={summaryId}>{blocker}</span> Only the user can upload them.
          </Alert>
        ) : (
          <Alert tone="success" title="Ready to verify" className="mb-3">
            Every required document is in. Read them, then verify or reject.
          </Alert>
        )
      ) : null}
      <ul className="divide-y divide-stone-100" aria-label="Documents">
        {DOCUMENT_TYPES.map((type) => {
          const doc = user?.documents[type];
          const label = DOCUMENT_LABELS[type];
          return (
            <li key={type} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-medium text-stone-900">{label}</p>
                {doc ? (
                  <Badge tone="success" icon={<CheckCircle2 className="size-3.5" aria-hidden="true" />}>
                    Uploaded
                  </Badge>
                ) : (
                  <Badge tone="neutral" icon={<FileX2 className="size-3.5" aria-hidden="true" />}>
                    Not Uploaded
                  </Badge>
                )}
                <span className="ml-2 text-xs text-stone-500">{REQUIRED_DOCUMENT_TYPES.includes(type) ? 'Required for verification' : 'Optional'}</span>
                {doc ? <p className="mt-1 truncate text-xs text-stone-500">{doc.originalName}</p> : null}
              </div>
              {doc ? (
                <div className="flex gap-2">
                  <Button size="sm" variant="ghost" icon={<ExternalLink className="size-4" aria-hidden="true" />} onClick={() => view(type)} aria-label={`View ${label}`}>
                    View
                  </Button>
                  <Button size="sm" variant="secondary" icon={<Download className="size-4" aria-hidden="true" />} onClick={() => void download(type)} aria-label={`Download ${label}`}>
                    Download
                  </Button>
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </Dialog>
  );
}

// ---- Add User ----
const CREATE_FIELDS = ['username', 'email', 'name', 'phone_number', 'address', 'password'] as const;
const EMPTY_CREATE: CreateUserBody = { username: '', email: '', name: '', phone_number: '', address: '', password: '' };

export function AddUserDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const notify = useNotification();
  const mutation = useCreateUser();
  const { register, handleSubmit, reset, setError, formState: { errors, isSubmitting } } = useForm<CreateUserBody>({
    resolver: zodResolver(createUserBodySchema),
    defaultValues: EMPTY_CREATE,
  });
  const close = () => {
    reset(EMPTY_CREATE);
    onClose();
  };
  const onSubmit = handleSubmit(async (values) => {
    const body: CreateUserBody = { ...values, phone_number: values.phone_number || undefined, address: values.address || undefined };
    try {
      await mutation.mutateAsync(body);
      notify.success('User created', `@${values.username} must now upload their documents.`);
      close();
    } catch (error) {
      applyServerErrors(error, CREATE_FIELDS, setError);
      notify.error('Create Failed', messageOf(error, 'Failed to create user. Please try again.'));
    }
  });

  return (
    <Dialog
      open={open}
      onClose={close}
      title="Add User"
      description="The new account starts with 'Documents needed': the user signs in and uploads their documents."
    >
      <form onSubmit={onSubmit} noValidate aria-label="Add user" className="grid gap-4 sm:grid-cols-2">
        <Input label="Username" autoComplete="off" error={errors.username?.message} {...register('username')} />
        <Input label="Email" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
        <Input label="Full name" autoComplete="off" error={errors.name?.message} {...register('name')} containerClassName="sm:col-span-2" />
        <Input label="Phone number" type="tel" autoComplete="off" error={errors.phone_number?.message} {...register('phone_number')} />
        <Input label="Password" type="password" autoComplete="new-password" error={errors.password?.message} {...register('password')} />
        <Input label="Address" autoComplete="off" error={errors.address?.message} {...register('address')} containerClassName="sm:col-span-2" />
        <div className="flex justify-end gap-2 sm:col-span-2">
          <Button variant="secondary" onClick={close} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" loading={isSubmitting}>
            Create user
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

// ---- Edit User ----
const EDIT_FIELDS = ['full_name', 'email', 'phone_number', 'address', 'role'] as const;

export function EditUserDialog({ user, onClose }: { user: UserWithDocuments | null; onClose: () => void }) {
  return (
    <Dialog open={user !== null} onClose={onClose} title="Edit User" description={user ? `@${user.username}: usernames cannot be changed.` : undefined}>
      {user ? <EditUserForm key={user.id} user={user} onClose={onClose} /> : null}
    </Dialog>
  );
}

function EditUserForm({ user, onClose }: { user: UserWithDocuments; onClose: () => void }) {
  const notify = useNotification();
  const mutation = useUpdateUser();
  const { register, handleSubmit, setError, formState: { errors, isSubmitting } } = useForm<AdminEditUserForm>({
    resolver: zodResolver(adminEditUserFormSchema),
    defaultValues: { full_name: user.full_name, email: user.email, phone_number: user.phone_number ?? '', address: user.address ?? '', role: user.role },
  });
  const onSubmit = handleSubmit(async (values) => {
    const body = {
      full_name: values.full_name,
      email: values.email,
      role: values.role,
      ...(values.phone_number ? { phone_number: values.phone_number } : {}),
      ...(values.address ? { address: values.address } : {}),
    };
    try {
      await mutation.mutateAsync({ username: user.username, body });
      notify.success('User updated', `@${user.username} was saved.`);
      onClose();
    } catch (error) {
      applyServerErrors(error, EDIT_FIELDS, setError);
      notify.error('Update Failed', messageOf(error, 'Failed to update user. Please try again.'));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Edit user" className="grid gap-4 sm:grid-cols-2">
      <Input label="Full name" error={errors.full_name?.message} {...register('full_name')} containerClassName="sm:col-span-2" />
      <Input label="Email" type="email" error={errors.email?.message} {...register('email')} />
      <Input label="Phone number" type="tel" error={errors.phone_number?.message} {...register('phone_number')} />
      <Input label="Address" error={errors.address?.message} {...register('address')} containerClassName="sm:col-span-2" />
      <label className="block text-sm sm:col-span-2">
        <span className="mb-1.5 block font-medium text-stone-700">Role</span>
        <select className={selectClasses} {...register('role')}>
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
        {errors.role?.message ? <span className="mt-1.5 block text-red-600">{errors.role.message}</span> : null}
      </label>
      <div className="flex justify-end gap-2 sm:col-span-2">
        <Button variant="secondary" onClick={onClose} disabled={isSubmitting}>
          Cancel
        </Button>
        <Button type="submit" loading={isSubmitting}>
          Save changes
        </Button>
      </div>
    </form>
  );
}
