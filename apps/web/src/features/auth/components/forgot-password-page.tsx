// Ask for a reset link by email; then the "Check Your Email" screen (document 1, section 8 messages).
import { zodResolver } from '@hookform/resolvers/zod';
import { forgotPasswordBodySchema } from '@karoo/shared';
import { KeyRound, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf, NETWORK_ERROR_MESSAGE } from '@/lib/api-client';
import { PATHS } from '@/lib/routes';
import { useForgotPassword } from '../api/forgot-password';
import { AuthCard, BackHomeLink } from './auth-card';

export const FORGOT_SUCCESS_MESSAGE = 'If an account with that email exists, a password reset link has been sent to your email.';
const FORGOT_FAILED_MESSAGE = 'Failed to send reset email. Please try again.';

export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const notify = useNotification();
  const mutation = useForgotPassword();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(forgotPasswordBodySchema), defaultValues: { email: '' } });

  const onSubmit = handleSubmit(async ({ email }) => {
    setFormError(null);
    try {
      const result = await mutation.mutateAsync({ email });
      notify.success('Reset Link Sent', result.message ?? FORGOT_SUCCESS_MESSAGE);
      setSentTo(email);
    } catch (error) {
      const message = isApiError(error) && !error.isNetworkError ? messageOf(error, FORGOT_FAILED_MESSAGE) : NETWORK_ERROR_MESSAGE;
      setFormError(message);
      notify.error('Error', message);
    }
  });

  if (sentTo) {
    return (
      <AuthCard title="Check Your Email" icon={<MailCheck className="size-6" aria-hidden="true" />}>
        <p className="text-center text-sm leading-6 text-stone-600">
          If an account exists for <strong className="font-semibold break-all text-stone-900">{sentTo}</strong>, we&apos;ve sent it a link
          to reset your password.
        </p>
        <div className="mt-6 rounded-xl border border-stone-200 bg-stone-50 p-4">
          <h2 className="text-sm font-semibold text-stone-900">What to do next</h2>
          <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm text-stone-600 marker:font-semibold marker:text-brand-600">
            <li>Check your inbox, and your spam or junk folder if it isn&apos;t there.</li>
            <li>Click the reset link in the email.</li>
            <li>Create a new password.</li>
            <li>The link expires in 1 hour, and works only once.</li>
          </ol>
        </div>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <Button block size="lg" onClick={() => navigate(PATHS.login)}>
            Back to Login
          </Button>
          <Button
            block
            size="lg"
            variant="secondary"
            onClick={() => {
              reset({ email: '' });
              setSentTo(null);
            }}
          >
            Try Different Email
          </Button>
        </div>
      </AuthCard>
    );
  }

  const pending = isSubmitting || mutation.isPending;
  return (
    <AuthCard
      title="Forgot your password?"
      subtitle="Enter the email address of your account and we'll send you a link to choose a new password."
      icon={<KeyRound className="size-6" aria-hidden="true" />}
      footer={
        <div className="space-y-3">
          <p>
            Remembered it?{' '}
            <Link to={PATHS.login} className="font-semibold text-brand-700 underline-offset-4 hover:underline">
              Back to sign in
            </Link>
          </p>
          <BackHomeLink />
        </div>
      }
    >
      {formError ? (
        <Alert tone="danger" role="alert" className="mb-5">
          {formError}
        </Alert>
      ) : null}
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <Input
          label="Email"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          error={errors.email?.message}
          {...register('email')}
        />
        <Button type="submit" block size="lg" loading={pending}>
          {pending ? 'Sending...' : 'Send Reset Link'}
        </Button>
      </form>
    </AuthCard>
  );
}
