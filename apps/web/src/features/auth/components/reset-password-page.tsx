// /reset-password?token=...: check the link, choose a new password, done (document 1, reset flow).
// A missing or unusable link sends the user back to /forgot-password with a toast saying why.
import { zodResolver } from '@hookform/resolvers/zod';
import { resetPasswordFormSchema } from '@karoo/shared';
import { CheckCircle2, LockKeyhole } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PasswordInput } from '@/components/ui/password-input';
import { Spinner } from '@/components/ui/spinner';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { PATHS } from '@/lib/routes';
import { useResetPassword } from '../api/reset-password';
import { useVerifyResetToken } from '../api/verify-reset-token';
import { AuthCard } from './auth-card';
import { PasswordStrengthMeter } from './password-strength-meter';

const INVALID_LINK_MESSAGE = 'This reset link is invalid or has expired. Please request a new one.';
const CHECK_NETWORK_MESSAGE = 'Unable to verify reset link. Please check your internet connection and try again.';
const RESET_FAILED_MESSAGE = 'Failed to reset password. Please try again.';
const RESET_NETWORK_MESSAGE = 'Unable to reset password. Please check your internet connection and try again.';

export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const notify = useNotification();
  const { isAuthenticated, clearSession } = useAuth();
  const check = useVerifyResetToken(token);
  const resetMutation = useResetPassword();
  const [done, setDone] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  // The redirect toast must appear once, also when React runs effects twice in development.
  const redirected = useRef(false);

  useEffect(() => {
    if (redirected.current || done) return;
    if (!token) {
      redirected.current = true;
      notify.error('Invalid Link', 'No reset token provided. Please request a new password reset.');
      navigate(PATHS.forgotPassword, { replace: true });
    } else if (check.isError) {
      redirected.current = true;
      const error = check.error;
      if (isApiError(error) && !error.isNetworkError) notify.error('Invalid or Expired Link', messageOf(error, INVALID_LINK_MESSAGE));
      else notify.error('Link Check Failed', CHECK_NETWORK_MESSAGE);
      navigate(PATHS.forgotPassword, { replace: true });
    }
  }, [token, check.isError, check.error, done, navigate, notify]);

  const {
    register,
    handleSubmit,
    control,
    formState: { errors, isSubmitting },
  } = useForm({ resolver: zodResolver(resetPasswordFormSchema), defaultValues: { password: '', confirmPassword: '' } });
  const password = useWatch({ control, name: 'password' });

  const onSubmit = handleSubmit(async (values) => {
    if (!token) return;
    setFormError(null);
    try {
      await resetMutation.mutateAsync({ token, newPassword: values.password });
      // The server signed this user out everywhere, this browser included.
      if (isAuthenticated) clearSession();
      notify.success('Password Reset', 'You can now sign in with your new password.');
      setDone(true);
    } catch (error) {
      if (isApiError(error) && !error.isNetworkError) {
        const message = error.errors.newPassword ?? messageOf(error, RESET_FAILED_MESSAGE);
        setFormError(message);
        notify.error('Reset Failed', message);
      } else {
        setFormError(RESET_NETWORK_MESSAGE);
        notify.error('Reset Failed', RESET_NETWORK_MESSAGE);
      }
    }
  });

  if (done) {
    return (
      <AuthCard title="Password Reset Successful" icon={<CheckCircle2 className="size-6" aria-hidden="true" />}>
        <p className="text-center text-sm leading-6 text-stone-600">
          Your password has been changed. For your security, all other reset links were invalidated and you were signed out on every
          device.
        </p>
        <Button block size="lg" className="mt-6" onClick={() => navigate(PATHS.login, { replace: true })}>
          Continue to Login
        </Button>
      </AuthCard>
    );
  }

  if (!token || !check.isSuccess) {
    return (
      <AuthCard title="Checking your reset link" icon={<LockKeyhole className="size-6" aria-hidden="true" />}>
        <div className="flex flex-col items-center gap-3 py-4 text-sm text-stone-500" role="status">
          <Spinner className="size-8 text-brand-600" />
          <p>Verifying your reset link...</p>
        </div>
      </AuthCard>
    );
  }

  const pending = isSubmitting || resetMutation.isPending;
  return (
    <AuthCard
      title="Choose a new password"
      subtitle="Use at least 8 characters with a letter and a number. Mixing upper and lower case with a symbol makes it harder to guess."
      icon={<LockKeyhole className="size-6" aria-hidden="true" />}
    >
      {formError ? (
        <Alert tone="danger" role="alert" className="mb-5">
          {formError}
        </Alert>
      ) : null}
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        <PasswordInput label="New Password" autoComplete="new-password" error={errors.password?.message} {...register('password')}>
          <PasswordStrengthMeter password={password} />
        </PasswordInput>
        <PasswordInput
          label="Confirm Password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <Button type="submit" block size="lg" loading={pending}>
          {pending ? 'Resetting Password...' : 'Reset Password'}
        </Button>
      </form>
    </AuthCard>
  );
}
