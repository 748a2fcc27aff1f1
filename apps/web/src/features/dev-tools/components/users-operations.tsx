// The playground's Users tab (document 3): create a user with the playground's payload
// {username, email, name, phone_number, address, password}, and delete a user after confirmation.
import { UserMinus, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { apiClient } from '@/lib/api-client';
import { segment } from '../api/run-operation';
import { isBlank, OperationCard, type OperationProps } from './operation-card';

/** Document 3 section 5. */
export const DELETE_USER_MESSAGE = 'Delete User needs a username';

const EMPTY_USER = { username: '', email: '', name: '', phone_number: '', address: '', password: '' };
type NewUserForm = typeof EMPTY_USER;

export function UsersOperations({ run, busy }: OperationProps) {
  const [form, setForm] = useState<NewUserForm>(EMPTY_USER);
  const [createErrors, setCreateErrors] = useState<Record<string, string>>({});
  const [username, setUsername] = useState('');
  const [deleteError, setDeleteError] = useState<string | undefined>();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const field = (name: keyof NewUserForm) => ({
    value: form[name],
    error: createErrors[name],
    onChange: (event: { target: { value: string } }) => {
      setForm((current) => ({ ...current, [name]: event.target.value }));
      setCreateErrors((current) => ({ ...current, [name]: '' }));
    },
  });

  const createUser = async () => {
    // Blank optional fields are left out; the server checks everything else and names the field.
    const body = Object.fromEntries(Object.entries(form).filter(([key, value]) => !(key === 'phone_number' || key === 'address') || !isBlank(value)));
    const result = await run('Create User', () => apiClient.post('/user/create', body), { writes: true });
    setCreateErrors(result.errors);
    if (result.isSuccess) setForm(EMPTY_USER);
  };

  const askDelete = () => {
    if (isBlank(username)) {
      setDeleteError(DELETE_USER_MESSAGE);
      return;
    }
    setConfirmDelete(true);
  };

  const isBusy = busy !== null;
  return (
    <div className="space-y-6">
      <OperationCard
        title="Create User"
        description="POST /api/user/create: a new account, waiting for its documents."
        icon={<UserPlus className="size-5" aria-hidden="true" />}
        onSubmit={() => void createUser()}
        actions={
          <Button type="submit" loading={busy === 'Create User'} disabled={isBusy}>
            Create User
          </Button>
        }
      >
        <Input label="Username" autoComplete="off" {...field('username')} />
        <Input label="Email" type="email" autoComplete="off" {...field('email')} />
        <Input label="Full name" autoComplete="off" {...field('name')} />
        <Input label="Phone number" type="tel" autoComplete="off" {...field('phone_number')} />
        <Input label="Address" autoComplete="off" containerClassName="sm:col-span-2" {...field('address')} />
        <PasswordInput label="Password" autoComplete="new-password" {...field('password')} />
      </OperationCard>

      <OperationCard
        title="Delete User"
        description="DELETE /api/user/delete/{id}: deletes the account and erases the person, as their own deletion does (administrators cannot be deleted)."
        icon={<UserMinus className="size-5" aria-hidden="true" />}
        onSubmit={askDelete}
        actions={
          <Button type="submit" variant="danger-outline" loading={busy === 'Delete User'} disabled={isBusy}>
            Delete User
          </Button>
        }
      >
        <Input
          label="Username to delete"
          value={username}
          onChange={(event) => {
            setUsername(event.target.value);
            setDeleteError(undefined);
          }}
          error={deleteError}
          autoComplete="off"
        />
      </OperationCard>

      <ConfirmDialog
        open={confirmDelete}
        tone="danger"
        title="Delete this user?"
        description={`The account ${username.trim()} is deleted: its cars leave Karoo, unpaid bookings are cancelled and the person is erased everywhere. This cannot be undone.`}
        confirmLabel="Delete User"
        loadingLabel="Deleting…"
        onConfirm={async () => {
          const result = await run('Delete User', () => apiClient.delete(`/user/delete/${segment(username)}`), { writes: true });
          if (result.isSuccess) setUsername('');
        }}
        onClose={() => setConfirmDelete(false)}
      />
    </div>
  );
}
