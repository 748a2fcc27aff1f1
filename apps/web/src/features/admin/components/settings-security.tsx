// The Settings tab's Security section (document 3 section 4): Change Admin Password (current
// password, then a new one under document 1's reset rules, with the strength meter; the server
// ends every other session) and Clear System Cache (confirmed first, then a toast naming what
// was cleared).
import { zodResolver } from '@hookform/resolvers/zod';
import { changePasswordFormSchema, passwordStrength, strengthLabel, type ChangePasswordForm } from '@karoo/shared';
import { clsx } from 'clsx';
import { DatabaseZap, KeyRound, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { PasswordInput } from '@/components/ui/password-input';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { useChangePassword } from '../api/change-password';
import { useClearServerCache, type ServerCache } from '../api/clear-cache';

const CACHE_NAMES: Record<ServerCache, string> = { browse: 'car browse pages', settings: 'platform settings' };

export function SecuritySection() {
  return (
    <Card>
      <CardHeader title="Security" description="Your own password and the server's caches." icon={<ShieldCheck className="size-5" aria-hidden="true" />} />
      <div className="grid gap-0 divide-y divide-stone-100 lg:grid-cols-2 lg:divide-x lg:divide-y-0">
        <ChangePassword />
        <ClearCache />
      </div>
    </Card>
  );
}

const EMPTY: ChangePasswordForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

function ChangePassword() {
  const notify = useNotification();
  const change = useChangePassword();
  const { register, handleSubmit, formState, reset, setError, watch } = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: EMPTY,
  });
  const errors = formState.errors;
  const newPassword = watch('newPassword');

  const onSubmit = handleSubmit(async ({ currentPassword, newPassword: next }) => {
    try {
      const message = await change.mutateAsync({ currentPassword, newPassword: next });
      reset(EMPTY);
      notify.success('Password changed', message ?? 'You were signed out on every other device.');
    } catch (error) {
      if (isApiError(error)) {
        for (const [field, message] of Object.entries(error.errors)) {
          if (field in EMPTY) setError(field as Path<ChangePasswordForm>, { type: 'server', message });
        }
      }
      notify.error('Password Change Failed', messageOf(error, 'Failed to change the password. Please try again.'));
    }
  });

  return (
    <CardBody>
      <form onSubmit={onSubmit} noValidate aria-labelledby="change-password-heading" className="space-y-4">
        <h3 id="change-password-heading" className="flex items-center gap-2 font-semibold text-stone-900">
          <KeyRound className="size-4 text-brand-600" aria-hidden="true" /> Change Admin Password
        </h3>
        <PasswordInput label="Current password" autoComplete="current-password" error={errors.currentPassword?.message} {...register('currentPassword')} />
        <PasswordInput
          label="New password"
          autoComplete="new-password"
          hint="At least 8 characters, with a letter and a number."
          error={errors.newPassword?.message}
          {...register('newPassword')}
        >
          <StrengthMeter password={newPassword} />
        </PasswordInput>
        <PasswordInput label="Confirm new password" autoComplete="new-password" error={errors.confirmPassword?.message} {...register('confirmPassword')} />
        <p className="text-xs text-stone-500">You stay signed in here; every other session of your account is signed out.</p>
        <Button type="submit" variant="secondary" loading={change.isPending}>
          Change Admin Password
        </Button>
      </form>
    </CardBody>
  );
}

const COLOURS = ['bg-red-500', 'bg-red-500', 'bg-orange-500', 'bg-amber-500', 'bg-lime-500', 'bg-emerald-600'];

/** The shared strength score as five bars and its label (as on the reset page). */
function StrengthMeter({ password }: { password: string }) {
  if (!password) return null;
  const score = passwordStrength(password);
  return (
    <div className="mt-2.5" data-testid="password-strength">
      <div className="flex gap-1.5" aria-hidden="true">
        {[1, 2, 3, 4, 5].map((bar) => (
          <span key={bar} className={clsx('h-1.5 flex-1 rounded-full', bar <= score ? COLOURS[score] : 'bg-stone-200')} />
        ))}
      </div>
      <p className="mt-1.5 text-xs text-stone-500" aria-live="polite">
        Password strength: <span className="font-semibold text-stone-700">{strengthLabel(score)}</span>
      </p>
    </div>
  );
}

function ClearCache() {
  const notify = useNotification();
  const clear = useClearServerCache();
  const [open, setOpen] = useState(false);

  const onConfirm = async () => {
    try {
      const cleared = await clear.mutateAsync();
      notify.success('System Cache Cleared', `Cleared: ${cleared.map((name) => CACHE_NAMES[name]).join(' and ')}.`);
    } catch (error) {
      notify.error('Clear Cache Failed', messageOf(error, 'Failed to clear the system cache. Please try again.'));
      throw error;
    }
  };

  return (
    <CardBody className="space-y-4">
      <h3 className="flex items-center gap-2 font-semibold text-stone-900">
        <DatabaseZap className="size-4 text-brand-600" aria-hidden="true" /> Clear System Cache
      </h3>
      <p className="text-sm text-stone-600">
        The server keeps car browse pages for a few seconds and the platform settings for a few more. Clearing makes the next request read
        the database. Other server instances catch up within 5 seconds.
      </p>
      <Button variant="danger-outline" onClick={() => setOpen(true)}>
        Clear System Cache
      </Button>
      <ConfirmDialog
        open={open}
        tone="warning"
        title="Clear the system cache?"
        description="Cached browse pages and settings are dropped; the next visitors load them from the database. Nothing is deleted."
        confirmLabel="Clear Cache"
        loadingLabel="Clearing…"
        onConfirm={onConfirm}
        onClose={() => setOpen(false)}
      />
    </CardBody>
  );
}
