// /unsubscribe?token=…: the link at the foot of every marketing email (decision 049). One click is
// enough: the page records the withdrawal as it opens (the token proves whose choice it is; no
// sign-in), and says so. Mail clients use the List-Unsubscribe-Post header for the same thing.
import { CheckCircle2, MailX } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Spinner } from '@/components/ui/spinner';
import { apiClient, messageOf } from '@/lib/api-client';
import { PATHS } from '@/lib/routes';

type State = { kind: 'working' } | { kind: 'done' } | { kind: 'failed'; message: string };

export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>(token ? { kind: 'working' } : { kind: 'failed', message: 'This unsubscribe link is incomplete. Open it again from the email.' });
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    apiClient
      .post<null>(`/privacy/unsubscribe?token=${encodeURIComponent(token)}`)
      .then(() => setState({ kind: 'done' }))
      .catch((error: unknown) => setState({ kind: 'failed', message: messageOf(error, 'We could not unsubscribe you. Please try again.') }));
  }, [token]);

  return (
    <div className="mx-auto w-full max-w-lg px-4 py-16 text-center sm:px-6">
      {state.kind === 'working' ? (
        <p className="inline-flex items-center gap-2 text-stone-600" role="status">
          <Spinner className="size-5 text-brand-600" /> Unsubscribing…
        </p>
      ) : null}
      {state.kind === 'done' ? (
        <div role="status">
          <CheckCircle2 className="mx-auto size-12 text-emerald-600" aria-hidden="true" />
          <h1 className="mt-4 text-2xl font-bold text-stone-900">You are unsubscribed</h1>
          <p className="mt-2 text-sm leading-6 text-stone-600">
            Karoo will not send you news or offers. Emails about your bookings, payments and account still reach you. You can change your
            mind on{' '}
            <Link to={PATHS.privacyData} className="font-semibold text-brand-700 underline underline-offset-2">
              Privacy and data
            </Link>
            .
          </p>
        </div>
      ) : null}
      {state.kind === 'failed' ? (
        <div>
          <MailX className="mx-auto size-12 text-stone-400" aria-hidden="true" />
          <Alert tone="danger" role="alert" className="mt-4 text-left">
            {state.message}
          </Alert>
        </div>
      ) : null}
    </div>
  );
}
