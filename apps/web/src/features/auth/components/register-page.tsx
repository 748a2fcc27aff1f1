// Create an account in two steps: Account Details, then Terms & Privacy (document 1, register
// screen). Each step validates with its shared schema; going back keeps what was typed.
import { zodResolver } from '@hookform/resolvers/zod';
import { MARKETING_CONSENT, registerStep1FormSchema, registerStep2FormSchema, type RegisterStep1Form } from '@karoo/shared';
import { clsx } from 'clsx';
import { Check, UserPlus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { PATHS, type LoginLocationState } from '@/lib/routes';
import { useRegister } from '../api/register';
import { AuthCard, BackHomeLink } from './auth-card';

const STEPS = ['Account Details', 'Terms & Privacy'] as const;
const STEP1_FIELDS = ['full_name', 'email', 'username', 'password', 'confirmPassword'] as const;
type Step2Field = 'terms_accepted' | 'privacy_accepted';

const linkClass = 'font-semibold text-brand-700 underline-offset-4 hover:underline';

function ProgressSteps({ current }: { current: number }) {
  return (
    <nav aria-label="Registration progress" className="mb-7">
      <p className="mb-3 text-center text-xs font-semibold tracking-wide text-stone-500 uppercase">
        Step {current} of {STEPS.length}
      </p>
      <ol className="flex items-center gap-3">
        {STEPS.map((label, index) => {
          const number = index + 1;
          const done = number < current;
          const active = number === current;
          return (
            <li key={label} className="flex flex-1 items-center gap-3" aria-current={active ? 'step' : undefined}>
              <span
                className={clsx(
                  'flex size-8 shrink-0 items-center justify-center rounded-full text-sm font-bold transition-colors',
                  done && 'bg-brand-600 text-white',
                  active && 'bg-brand-600 text-white ring-4 ring-brand-100',
                  !done && !active && 'bg-stone-100 text-stone-600',
                )}
              >
                {done ? <Check className="size-4" aria-hidden="true" /> : number}
              </span>
              <span className={clsx('text-sm font-medium', active || done ? 'text-stone-900' : 'text-stone-500')}>{label}</span>
              {number < STEPS.length ? (
                <span aria-hidden="true" className={clsx('hidden h-0.5 flex-1 rounded-full sm:block', done ? 'bg-brand-600' : 'bg-stone-200')} />
              ) : null}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

export function RegisterPage() {
  const navigate = useNavigate();
  const notify = useNotification();
  const registerMutation = useRegister();
  const [step, setStep] = useState<1 | 2>(1);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const previousStep = useRef(step);
  // A new step starts at the top of the page, its heading focused (read out, and where Tab goes on
  // from): otherwise the page stays scrolled to where Continue was and the heading sits under the
  // header. Not on the first render (the page opens at its top, focus where the browser puts it).
  useEffect(() => {
    if (previousStep.current === step) return;
    previousStep.current = step;
    window.scrollTo({ top: 0 });
    stepHeading.current?.focus({ preventScroll: true });
  }, [step]);

  const accountForm = useForm({
    resolver: zodResolver(registerStep1FormSchema),
    defaultValues: { full_name: '', email: '', username: '', password: '', confirmPassword: '' },
  });
  const termsForm = useForm({
    resolver: zodResolver(registerStep2FormSchema),
    // The marketing opt-in is unticked unless the person ticks it (POPIA s. 69, decision 049).
    defaultValues: { terms_accepted: false, privacy_accepted: false, marketing_opt_in: false },
  });
  const accountErrors = accountForm.formState.errors;
  const termsErrors = termsForm.formState.errors;

  const onContinue = accountForm.handleSubmit(() => setStep(2));

  const onCreate = termsForm.handleSubmit(async (terms) => {
    // Step 1 was valid when we left it; parse again for its trimmed values.
    const parsed = registerStep1FormSchema.safeParse(accountForm.getValues());
    if (!parsed.success) {
      setStep(1);
      await accountForm.trigger();
      return;
    }
    const { confirmPassword: _confirm, ...account } = parsed.data;
    try {
      const result = await registerMutation.mutateAsync({ ...account, ...terms, terms_accepted: true, privacy_accepted: true });
      notify.success(
        'Registration Successful!',
        result.message ?? 'Your account has been created and is pending verification. Sign in to upload your documents.',
        7000,
      );
      const state: LoginLocationState = { registered: true, username: account.username };
      navigate(PATHS.login, { state });
    } catch (error) {
      if (!isApiError(error) || error.isNetworkError) {
        notify.error('Network Error', 'Please check if the server is running and try again.', 5000);
        return;
      }
      let backToStep1 = false;
      for (const [field, message] of Object.entries(error.errors)) {
        if ((STEP1_FIELDS as readonly string[]).includes(field)) {
          accountForm.setError(field as Path<RegisterStep1Form>, { type: 'server', message });
          backToStep1 = true;
        } else if (field === 'terms_accepted' || field === 'privacy_accepted') {
          termsForm.setError(field as Step2Field, { type: 'server', message });
        }
      }
      if (backToStep1) setStep(1);
      notify.error('Registration Failed', messageOf(error, 'Registration failed'), 5000);
    }
  });

  const creating = termsForm.formState.isSubmitting || registerMutation.isPending;

  return (
    <AuthCard
      wide
      title="Create your account"
      subtitle="Join Karoo to rent cars from local hosts, or share your own."
      icon={<UserPlus className="size-6" aria-hidden="true" />}
      footer={
        <div className="space-y-3">
          <p>
            Already have an account?{' '}
            <Link to={PATHS.login} className={linkClass}>
              Sign in
            </Link>
          </p>
          <BackHomeLink />
        </div>
      }
    >
      <ProgressSteps current={step} />

      {step === 1 ? (
        <form onSubmit={onContinue} noValidate className="space-y-5" aria-labelledby="register-step-1">
          <h2 id="register-step-1" ref={stepHeading} tabIndex={-1} className="text-lg font-semibold text-stone-900 focus:outline-none">
            Account Details
          </h2>
          <Input label="Full Name" autoComplete="name" error={accountErrors.full_name?.message} {...accountForm.register('full_name')} />
          <Input
            label="Email"
            type="email"
            autoComplete="email"
            autoCapitalize="none"
            spellCheck={false}
            error={accountErrors.email?.message}
            {...accountForm.register('email')}
          />
          <Input
            label="Username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            hint="At least 3 characters: letters, numbers, dots, hyphens and underscores."
            error={accountErrors.username?.message}
            {...accountForm.register('username')}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <PasswordInput
              label="Password"
              autoComplete="new-password"
              hint="At least 6 characters."
              error={accountErrors.password?.message}
              {...accountForm.register('password')}
            />
            <PasswordInput
              label="Confirm Password"
              autoComplete="new-password"
              error={accountErrors.confirmPassword?.message}
              {...accountForm.register('confirmPassword')}
            />
          </div>
          <Button type="submit" block size="lg">
            Continue
          </Button>
        </form>
      ) : (
        <form onSubmit={onCreate} noValidate className="space-y-5" aria-labelledby="register-step-2">
          <div>
            <h2 id="register-step-2" ref={stepHeading} tabIndex={-1} className="text-lg font-semibold text-stone-900 focus:outline-none">
              Terms &amp; Privacy
            </h2>
            <p className="mt-1 text-sm text-stone-500">
              Please read and accept our terms and privacy policy. They explain how renting and hosting on Karoo works and how we
              protect your personal information under POPIA.
            </p>
          </div>
          <div className="space-y-4 rounded-xl border border-stone-200 bg-stone-50/60 p-4">
            <Checkbox
              label={
                <>
                  I have read and agree to the{' '}
                  <Link to={PATHS.terms} target="_blank" rel="noopener noreferrer" className={linkClass}>
                    Terms of Service
                  </Link>
                </>
              }
              error={termsErrors.terms_accepted?.message}
              {...termsForm.register('terms_accepted')}
            />
            <Checkbox
              label={
                <>
                  I have read and agree to the{' '}
                  <Link to={PATHS.privacy} target="_blank" rel="noopener noreferrer" className={linkClass}>
                    Privacy Policy
                  </Link>
                </>
              }
              error={termsErrors.privacy_accepted?.message}
              {...termsForm.register('privacy_accepted')}
            />
          </div>
          <Checkbox
            label={MARKETING_CONSENT.wording}
            description="Optional. Emails about your bookings and account come either way."
            {...termsForm.register('marketing_opt_in')}
          />
          <div className="flex flex-col-reverse gap-3 sm:flex-row">
            <Button variant="secondary" size="lg" className="sm:flex-1" onClick={() => setStep(1)} disabled={creating}>
              Previous
            </Button>
            <Button type="submit" size="lg" className="sm:flex-[2]" loading={creating}>
              {creating ? 'Creating Account...' : 'Create Account'}
            </Button>
          </div>
        </form>
      )}
    </AuthCard>
  );
}
