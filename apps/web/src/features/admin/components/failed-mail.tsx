// The Dashboard's Failed mail section (issue 12): mail the server's worker gave up on after its
// retries, with the recipient, subject, attempts and last error, and a Retry button that puts it
// back in the queue. Empty most of the time, and says so.
import type { AdminMail } from '@karoo/shared';
import { MailWarning, RotateCcw } from 'lucide-react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useFailedMail, useRetryMail } from '../api/admin-mail';

const card = 'rounded-2xl border border-stone-200/80 bg-white shadow-card';

export function FailedMail() {
  const failed = useFailedMail();
  return (
    <section aria-labelledby="admin-failed-mail" className={`p-4 sm:p-5 ${card}`}>
      <h2 id="admin-failed-mail" className="flex items-center gap-2 text-lg font-semibold text-stone-900">
        <MailWarning className="size-5 text-stone-500" aria-hidden="true" />
        Failed mail
      </h2>
      <p className="text-sm text-stone-500">Email the server stopped trying to send after its retries.</p>
      {failed.isPending ? (
        <p className="mt-4 text-sm text-stone-500" role="status">
          Loading failed mail…
        </p>
      ) : !failed.data ? (
        <Alert tone="danger" title="Failed mail could not be loaded" className="mt-4">
          {messageOf(failed.error, 'Please try again.')}
          <div className="mt-3">
            <Button size="sm" variant="secondary" onClick={() => void failed.refetch()} loading={failed.isFetching}>
              Try again
            </Button>
          </div>
        </Alert>
      ) : failed.data.length === 0 ? (
        <p className="mt-4 text-sm text-stone-500">No failed mail. Every message was sent or is still being tried.</p>
      ) : (
        <ul className="mt-3 divide-y divide-stone-100">
          {failed.data.map((mail) => (
            <FailedMailItem key={mail.id} mail={mail} />
          ))}
        </ul>
      )}
    </section>
  );
}

function FailedMailItem({ mail }: { mail: AdminMail }) {
  const notify = useNotification();
  const retry = useRetryMail();
  const onRetry = () =>
    retry.mutate(mail.id, {
      onSuccess: () => notify.success('Mail queued', `The message to ${mail.to} will be sent again.`),
      onError: (error) => notify.error('Retry failed', messageOf(error, 'The message could not be queued again.')),
    });
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0 space-y-1">
        <p className="truncate font-medium text-stone-900">{mail.subject}</p>
        <p className="truncate text-sm text-stone-600">To {mail.to}</p>
        <p className="text-xs text-stone-500">
          {mail.attempts} {mail.attempts === 1 ? 'attempt' : 'attempts'} · queued {formatDateTime(mail.created_at)}
        </p>
        {mail.last_error ? <p className="text-sm break-words text-red-700">Last error: {mail.last_error}</p> : null}
      </div>
      <Button
        size="sm"
        variant="secondary"
        className="shrink-0 self-start"
        icon={<RotateCcw className="size-4" aria-hidden="true" />}
        loading={retry.isPending}
        onClick={onRetry}
        aria-label={`Retry the mail to ${mail.to}: ${mail.subject}`}
      >
        Retry
      </Button>
    </li>
  );
}
