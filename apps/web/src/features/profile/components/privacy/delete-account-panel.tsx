// The Privacy and data page's "Delete your account" panel (POPIA s. 24; decision 050): what goes and
// what stays until when, why it cannot go yet (a trip under way, money owed either way), and the
// deletion itself, confirmed with the password in a dialog. Afterwards the session ends here and
// the sign-in page is loaded afresh, saying the account was deleted.
import { AlertTriangle, CheckCircle2, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardBody, CardHeader } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { isApiError, messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { formatDate } from '@/lib/format';
import { PATHS } from '@/lib/routes';
import { useDeleteAccount, useDeletionPlan } from '../../api/account-deletion';

export function DeleteAccountPanel() {
  const plan = useDeletionPlan();
  const [open, setOpen] = useState(false);
  return (
    <Card>
      <CardHeader
        title="Delete your account"
        description="Your personal information is erased or anonymised. Records the law requires us to keep stay, without your name, for as long as it requires."
        icon={<Trash2 className="size-5" aria-hidden="true" />}
      />
      <CardBody className="space-y-5">
        {plan.isPending ? (
          <div className="flex items-center gap-2 text-sm text-stone-500" role="status">
            <Spinner className="size-4 text-brand-600" /> Checking what deleting would do...
          </div>
        ) : null}
        {plan.isError ? <Alert tone="warning" title="We couldn’t check your account">{messageOf(plan.error, 'Please try again.')}</Alert> : null}
        {plan.data ? (
          <>
            <div className="grid gap-5 md:grid-cols-2">
              <section aria-labelledby="deleted-heading">
                <h3 id="deleted-heading" className="text-sm font-semibold text-stone-900">
                  What we delete
                </h3>
                <ul className="mt-2 space-y-1.5 text-sm text-stone-700">
                  {plan.data.erased.map((line) => (
                    <li key={line} className="flex gap-2">
                      <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-600" aria-hidden="true" />
                      <span>{line}</span>
                    </li>
                  ))}
                </ul>
              </section>
              <section aria-labelledby="kept-heading">
                <h3 id="kept-heading" className="text-sm font-semibold text-stone-900">
                  What we keep, and why
                </h3>
                <ul className="mt-2 space-y-3 text-sm text-stone-700">
                  {plan.data.kept.map((k) => (
                    <li key={k.what}>
                      <p className="font-medium text-stone-800">
                        {k.what} <span className="font-normal text-stone-500">— until {/^\d{4}-\d{2}-\d{2}$/.test(k.until) ? formatDate(k.until) : k.until}</span>
                      </p>
                      <p className="text-stone-600">{k.why}</p>
                    </li>
                  ))}
                </ul>
              </section>
            </div>
            {plan.data.blockers.length > 0 ? (
              <Alert tone="warning" title="Your account cannot be deleted yet">
                <ul className="list-disc space-y-1 pl-5">
                  {plan.data.blockers.map((b) => (
                    <li key={b}>{b}</li>
                  ))}
                </ul>
              </Alert>
            ) : (
              <div className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-red-200 bg-red-50 p-4">
                <p className="text-sm text-red-900">
                  {plan.data.cancelsRequests > 0
                    ? `Your ${plan.data.cancelsRequests === 1 ? 'booking request that is' : `${plan.data.cancelsRequests} booking requests that are`} not paid yet will be cancelled, and the other person told. `
                    : ''}
                  This cannot be undone.
                </p>
                <Button variant="danger" icon={<Trash2 className="size-4" aria-hidden="true" />} onClick={() => setOpen(true)}>
                  Delete my account
                </Button>
              </div>
            )}
          </>
        ) : null}
      </CardBody>
      {open ? <ConfirmDeletion onClose={() => setOpen(false)} /> : null}
    </Card>
  );
}

function ConfirmDeletion({ onClose }: { onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteAccount();
  const { clearSession } = useAuth();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      setError('Enter your password');
      return;
    }
    setError(null);
    remove.mutate(password, {
      onSuccess: () => {
        // A full load of the sign-in page, with nothing of the session left: a query still in
        // flight with the old token would otherwise answer 401 and send the app to sign in again.
        clearSession();
        window.location.replace(`${PATHS.login}?deleted=1`);
      },
      onError: (e) => setError(isApiError(e) && e.errors.password ? e.errors.password : messageOf(e, 'Your account could not be deleted. Please try again.')),
    });
  };

  return (
    <Dialog
      open
      onClose={onClose}
      title="Delete your account?"
      description="Enter your password to confirm. You will be signed out everywhere and can no longer sign in."
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button variant="danger" type="submit" form="delete-account-form" loading={remove.isPending} icon={<AlertTriangle className="size-4" aria-hidden="true" />}>
            Delete for good
          </Button>
        </>
      }
    >
      <form id="delete-account-form" onSubmit={submit} noValidate>
        <PasswordInput label="Password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} error={error ?? undefined} autoFocus />
      </form>
    </Dialog>
  );
}
