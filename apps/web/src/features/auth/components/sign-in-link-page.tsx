// /sign-in-link?token=...: the page an emailed sign-in link opens (decision 030). It uses the link
// once, as soon as it opens, and lands the user where a sign-in would (postLoginPath); a link that
// is unknown, used or expired says so and leads back to the sign-in page to ask for a new one.
import { SIGN_IN_LINK_INVALID_MESSAGE, SIGN_IN_LINK_TTL_MS } from '@karoo/shared';
import { KeyRound } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { buttonClasses } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { isApiError, messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/routes';
import { useSignInWithLink } from '../api/sign-in-with-link';
import { postLoginPath } from '../utils/post-login-path';
import { AuthCard, BackHomeLink } from './auth-card';

const NETWORK_MESSAGE = 'Unable to sign you in. Please check your internet connection and open the link again.';

export function SignInLinkPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const { login } = useAuth();
  const signIn = useSignInWithLink();
  // A link works once: it is sent once, also when React runs effects twice in development.
  const sent = useRef(false);

  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    signIn.mutate(
      { token },
      {
        onSuccess: ({ user, token: sessionToken }) => {
          login(user, sessionToken);
          navigate(postLoginPath(user), { replace: true });
        },
      },
    );
  }, [token, signIn, login, navigate]);

  const failed = !token || signIn.isError;
  if (!failed) {
    return (
      <AuthCard title="Signing you in" icon={<KeyRound className="size-6" aria-hidden="true" />}>
        <div className="flex flex-col items-center gap-3 py-4 text-sm text-stone-500" role="status">
          <Spinner className="size-8 text-brand-600" />
          <p>Checking your sign-in link...</p>
        </div>
      </AuthCard>
    );
  }

  const error = signIn.error;
  const message = !token
    ? SIGN_IN_LINK_INVALID_MESSAGE
    : isApiError(error) && error.isNetworkError
      ? NETWORK_MESSAGE
      : messageOf(error, SIGN_IN_LINK_INVALID_MESSAGE);
  return (
    <AuthCard title="This link can't sign you in" icon={<KeyRound className="size-6" aria-hidden="true" />} footer={<BackHomeLink />}>
      <p role="alert" className="text-center text-sm leading-6 text-stone-600">
        {message}
      </p>
      <p className="mt-3 text-center text-sm leading-6 text-stone-600">
        A sign-in link works once, within {SIGN_IN_LINK_TTL_MS / 60_000} minutes of being sent. Sign in with your password, or, if
        that is still refused, ask for a new link there.
      </p>
      <Link to={PATHS.login} replace className={buttonClasses({ block: true, size: 'lg', className: 'mt-6' })}>
        Go to Sign In
      </Link>
    </AuthCard>
  );
}
