// Sign in with username or email (document 1, login screen and section 8's messages). When the
// server refuses password sign-in for now (429: the attempts wait, or the account reached its cap of
// failed attempts), the page offers to email a one-time sign-in link instead (decision 030).
import { zodResolver } from '@hookform/resolvers/zod';
import { loginBodySchema } from '@karoo/shared';
import { LogIn, Mail } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { PATHS, type LoginLocationState } from '@/lib/routes';
import { useLogin } from '../api/login';
import { useRequestSignInLink } from '../api/request-sign-in-link';
import { postLoginPath } from '../utils/post-login-path';
import { AuthCard, BackHomeLink } from './auth-card';

export const LOGIN_ERROR_MESSAGE = 'An error occurred during login. Please try again.';
const LINK_REQUEST_FAILED = 'The sign-in link could not be requested. Please check your connection and try again.';
const INVALID_CREDENTIALS = 'Invalid credentials';

const linkClass = 'font-semibold text-brand-700 underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500 rounded';

export function LoginPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const { login } = useAuth();
  const notify = useNotification();
  const loginMutation = useLogin();
  const state = (location.state ?? null) as LoginLocationState | null;
  // After deleting one's own account (decision 050) the app reloads here, with nothing left of the session.
  const accountDeleted = new URLSearchParams(location.search).get('deleted') === '1';
  const [formError, setFormError] = useState<string | null>(null);
  // Password sign-in refused for now: the name it was refused for, to send a sign-in link to.
  const [linkOfferFor, setLinkOfferFor] = useState<string | null>(null);
  const [linkSentMessage, setLinkSentMessage] = useState<string | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const linkRequest = useRequestSignInLink();

  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(loginBodySchema),
    defaultValues: { username: state?.username ?? '', password: '', remember: false },
  });

  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    setLinkOfferFor(null);
    setLinkSentMessage(null);
    setLinkError(null);
    try {
      const { user, token } = await loginMutation.mutateAsync({
        username: values.username,
        password: values.password,
        ...(values.remember ? { remember: true } : {}),
      });
      login(user, token);
      navigate(postLoginPath(user, state?.from), { replace: true });
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        setError('username', { type: 'server', message: INVALID_CREDENTIALS });
        setError('password', { type: 'server', message: INVALID_CREDENTIALS });
        notify.error('Login Failed', messageOf(error, 'Invalid credentials. Please try again.'));
      } else if (isApiError(error) && error.isClientError) {
        // 429 (too many attempts) and other refusals carry a message worth reading as is.
        const message = messageOf(error, LOGIN_ERROR_MESSAGE);
        setFormError(message);
        if (error.status === 429) setLinkOfferFor(values.username);
        notify.error('Login Failed', message);
      } else {
        setFormError(LOGIN_ERROR_MESSAGE);
        notify.error('Login Failed', LOGIN_ERROR_MESSAGE);
      }
    }
  });

  const pending = isSubmitting || loginMutation.isPending;

  const emailSignInLink = async () => {
    if (!linkOfferFor) return;
    setLinkError(null);
    try {
      const result = await linkRequest.mutateAsync({ username: linkOfferFor });
      setLinkSentMessage(result.message ?? 'If an account matches, a sign-in link is on its way to its email address.');
    } catch (error) {
      setLinkError(messageOf(error, LINK_REQUEST_FAILED));
    }
  };

  // The heading speaks to the person who arrives: "Welcome back" greets a returning member, never
  // someone who has just deleted their account or just created one.
  const heading = accountDeleted
    ? { title: 'Your account has been deleted', subtitle: 'Goodbye from Karoo. To use another account, sign in below.' }
    : state?.registered
      ? { title: 'Sign in to your new account', subtitle: 'Upload your documents and complete your profile to start booking.' }
      : { title: 'Welcome back', subtitle: 'Sign in to book cars, manage your trips and list your own.' };

  return (
    <AuthCard
      title={heading.title}
      subtitle={heading.subtitle}
      icon={<LogIn className="size-6" aria-hidden="true" />}
      footer={
        <div className="space-y-3">
          <p>
            Don&apos;t have an account?{' '}
            <Link to={PATHS.register} className={linkClass}>
              Create an account
            </Link>
          </p>
          <BackHomeLink />
        </div>
      }
    >
      {state?.registered ? (
        <Alert tone="success" title="Account created" className="mb-5">
          Your account is pending verification. Sign in to upload your documents and complete your profile: some features stay
          limited until an administrator approves your account.
        </Alert>
      ) : null}
      {accountDeleted ? (
        <Alert tone="success" role="status" className="mb-5">
          A confirmation of what was deleted, and what is kept until when, is on its way to your email address.
        </Alert>
      ) : null}
      {state?.from && !state.registered && !accountDeleted ? (
        <Alert tone="info" className="mb-5">
          Please sign in to continue.
        </Alert>
      ) : null}
      {formError && !linkSentMessage ? (
        <Alert tone="danger" role="alert" className="mb-5">
          <p>{formError}</p>
          {linkOfferFor ? (
            <div className="mt-3 space-y-2">
              <p>You can get in without your password: we email a link to the account&apos;s address that signs you in once.</p>
              <Button variant="secondary" icon={<Mail className="size-4" aria-hidden="true" />} loading={linkRequest.isPending} onClick={emailSignInLink}>
                {linkRequest.isPending ? 'Sending link...' : 'Email me a sign-in link'}
              </Button>
              {linkError ? <p className="font-medium">{linkError}</p> : null}
            </div>
          ) : null}
        </Alert>
      ) : null}
      {linkSentMessage ? (
        <Alert tone="success" role="status" title="Check your email" className="mb-5">
          {linkSentMessage}
        </Alert>
      ) : null}

      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <Input
          label="Username or Email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          error={errors.username?.message}
          {...register('username')}
        />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          error={errors.password?.message}
          labelAside={
            <Link to={PATHS.forgotPassword} className="text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
              Forgot password?
            </Link>
          }
          {...register('password')}
        />
        <Checkbox label="Remember me" description="Stay signed in on this device for 30 days." {...register('remember')} />
        <Button type="submit" block size="lg" loading={pending}>
          {pending ? 'Signing in...' : 'Sign In'}
        </Button>
      </form>
    </AuthCard>
  );
}
