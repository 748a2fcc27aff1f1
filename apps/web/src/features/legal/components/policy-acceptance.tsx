// The sign-in interstitial (decision 049): when the terms or the privacy notice changed since the
// person last accepted them, the signed-in app shows this instead of the page until they accept the
// new versions. It says what changed and links to the full texts; the acceptance is recorded with the
// versions and the time. Loaded only when needed (the landing page's bundle stays small).
import { CURRENT_POLICIES, type PolicyState } from '@karoo/shared';
import { FileCheck2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { formatDate } from '@/lib/format';
import { PATHS } from '@/lib/routes';
import { useAcceptPolicies } from '../api/policies';

export function PolicyAcceptance({ policies }: { policies: PolicyState[] }) {
  const { user, logout } = useAuth();
  const accept = useAcceptPolicies(user?.id);
  const [error, setError] = useState<string | null>(null);
  const pending = policies.filter((policy) => policy.needs_acceptance);

  async function agree() {
    setError(null);
    try {
      await accept.mutateAsync({ terms_version: CURRENT_POLICIES.terms.version, privacy_version: CURRENT_POLICIES.privacy.version });
    } catch (err) {
      setError(messageOf(err, 'We could not record your acceptance. Please try again.'));
    }
  }

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-10 sm:px-6">
      <section className="rounded-2xl border border-stone-200 bg-white p-6 shadow-card sm:p-8" aria-labelledby="policy-acceptance-title">
        <span className="flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600">
          <FileCheck2 className="size-6" aria-hidden="true" />
        </span>
        <h1 id="policy-acceptance-title" className="mt-4 text-2xl font-bold tracking-tight text-stone-900">
          We updated our {pending.map((p) => p.name).join(' and ')}
        </h1>
        <p className="mt-2 text-sm leading-6 text-stone-600">Please read what changed. To keep using Karoo, accept the new versions.</p>
        <div className="mt-6 space-y-5">
          {pending.map((policy) => (
            <div key={policy.kind}>
              <h2 className="text-base font-semibold text-stone-900">
                {policy.name}, version {policy.current_version}
                <span className="ml-2 text-sm font-normal text-stone-500">in force from {formatDate(policy.effective)}</span>
              </h2>
              <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-stone-700">
                {policy.changes.map((change) => (
                  <li key={change}>{change}</li>
                ))}
              </ul>
              <Link
                to={policy.kind === 'terms' ? PATHS.terms : PATHS.privacy}
                target="_blank"
                rel="noopener noreferrer"
                className="mt-2 inline-block text-sm font-semibold text-brand-700 underline underline-offset-2"
              >
                Read the full {policy.name}
              </Link>
              {policy.accepted_version ? <p className="mt-1 text-xs text-stone-500">You accepted version {policy.accepted_version} before.</p> : null}
            </div>
          ))}
        </div>
        {error ? (
          <Alert tone="danger" role="alert" className="mt-5">
            {error}
          </Alert>
        ) : null}
        <div className="mt-8 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={() => void logout()}>
            Sign out
          </Button>
          <Button loading={accept.isPending} onClick={() => void agree()}>
            I accept
          </Button>
        </div>
      </section>
    </div>
  );
}
