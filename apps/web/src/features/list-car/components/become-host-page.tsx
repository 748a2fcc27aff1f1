// /become-host, the list-a-car wizard (document 2): Vehicle Details -> Features & Submit -> create
// the car -> Documents -> host dashboard. Open to everyone; a visitor who submits is sent to sign
// in, and the draft waits in sessionStorage. The server makes the user a host with their first car
// (decisions.md section 1), so the wizard only refreshes the user afterwards.
import { carName, DEFAULT_SETTINGS, isHost, type Car } from '@karoo/shared';
import { ArrowLeft, ArrowRight, BadgeCheck, CarFront, Send, Wallet } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useNotification } from '@/components/ui/toast';
import { isApiError, messageOf } from '@/lib/api-client';
import { useAuth } from '@/lib/auth';
import { formatRand } from '@/lib/format';
import { useSettings } from '@/lib/queries/settings';
import { PATHS } from '@/lib/routes';
import { useCreateCar } from '../api/create-car';
import { clearWizardState, useWizardState } from '../hooks/use-wizard-state';
import { buildNewCarBody, emptyDraft, missingStep1Fields, step1Problem, submitProblem, WIZARD_STEPS, type Step1Field, type WizardDraft } from '../utils/wizard-draft';
import { DocumentsStep } from './documents-step';
import { FeaturesStep } from './features-step';
import { VehicleDetailsStep } from './vehicle-details-step';
import { WizardProgress } from './wizard-progress';

export const SUBMIT_FAILED_INLINE = 'Failed to add vehicle. Please check all required fields and try again.';
export const ADD_VEHICLE_FAILED = 'Failed to add vehicle and upgrade to host. Please try again.';
const SIGN_IN_PATH = '/signin';

export interface BecomeHostPageProps {
  /** The user's verification documents panel (from the verification feature). */
  documentsPanel?: ReactNode;
  /** The registration document panel of the new car (from the host feature). */
  renderRegistrationPanel?: (car: Car) => ReactNode;
}

const PERKS = [
  { icon: <Wallet className="size-5" aria-hidden="true" />, title: 'Earn on your terms', text: 'Set your own daily price and availability.' },
  { icon: <BadgeCheck className="size-5" aria-hidden="true" />, title: 'Verified renters', text: 'Every renter is ID-checked before they book.' },
  { icon: <CarFront className="size-5" aria-hidden="true" />, title: 'You stay in control', text: 'Accept requests, pickup spots and cover plans.' },
];

/** Enter does not submit on steps 1 and 3 (document 2): only in inputs and selects, buttons keep working. */
export function shouldBlockEnter(step: number, target: EventTarget | null): boolean {
  if (step === 2) return false;
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement;
}

export function BecomeHostPage({ documentsPanel, renderRegistrationPanel }: BecomeHostPageProps) {
  const { user, refreshUser, updateUser } = useAuth();
  const notify = useNotification();
  const navigate = useNavigate();
  const settings = useSettings();
  const createCar = useCreateCar();
  const { state, setState, restored, photosLost, reset } = useWizardState();
  const [missing, setMissing] = useState<Step1Field[]>([]);
  const [descriptionError, setDescriptionError] = useState<string | undefined>();
  const [confirmOpen, setConfirmOpen] = useState(false);
  const [submitError, setSubmitError] = useState<string[] | null>(null);
  const [showRestored, setShowRestored] = useState(restored);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  /** The last 'fix this first' toast, closed once the step moves on. */
  const problemToast = useRef<string | null>(null);

  const { step, draft, createdCar } = state;
  const currentYear = new Date().getFullYear();
  const minCarValue = settings.data?.minCarValue ?? DEFAULT_SETTINGS.minCarValue;

  // A new step starts at the top, with the focus on its heading.
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    window.scrollTo({ top: 0, behavior: window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'instant' : 'smooth' });
    headingRef.current?.focus({ preventScroll: true });
  }, [step]);

  const setDraft = (next: WizardDraft) => {
    setState((current) => ({ ...current, draft: next }));
    if (missing.length) setMissing(missingStep1Fields(next).filter((field) => missing.includes(field)));
    if (descriptionError && next.description.trim()) setDescriptionError(undefined);
  };

  const goTo = (next: 1 | 2 | 3) => setState((current) => ({ ...current, step: next }));

  const showProblem = (problem: { type: 'warning' | 'error'; title: string; message: string }) => {
    if (problemToast.current) notify.dismissNotification(problemToast.current);
    problemToast.current = notify.showNotification({ type: problem.type, title: problem.title, message: problem.message, duration: 6000 });
  };

  const clearProblem = () => {
    if (problemToast.current) notify.dismissNotification(problemToast.current);
    problemToast.current = null;
  };

  const continueToFeatures = () => {
    const problem = step1Problem(draft, { minCarValue, currentYear });
    if (problem) {
      setMissing(missingStep1Fields(draft));
      showProblem(problem);
      return;
    }
    setMissing([]);
    clearProblem();
    goTo(2);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (step !== 2) return;
    const problem = submitProblem(draft);
    if (problem) {
      if (problem.title === 'Description Required') setDescriptionError(problem.message);
      showProblem(problem);
      return;
    }
    const step1 = step1Problem(draft, { minCarValue, currentYear });
    if (step1) {
      setMissing(missingStep1Fields(draft));
      showProblem(step1);
      goTo(1);
      return;
    }
    if (!user) {
      notify.warning('Authentication Required', 'Please sign in to add a vehicle to your listing.', 6000);
      navigate(SIGN_IN_PATH, { state: { from: { pathname: PATHS.becomeHost, search: '', hash: '' } } });
      return;
    }
    clearProblem();
    setSubmitError(null);
    setConfirmOpen(true);
  };

  // Run by the confirmation dialog: a failure is toasted, listed inline and rethrown, so the dialog
  // stays open (document 2's confirmation dialog) until the host cancels or tries again.
  const confirm = async () => {
    if (!user) return;
    try {
      const result = await createCar.mutateAsync({ username: user.username, body: buildNewCarBody(draft) });
      notify.success('Vehicle Added Successfully', result.message ?? `${carName(result.data)} was added to your listings.`, 8000);
      // The server has made the user a host; the session learns it from GET /api/user/me.
      await refreshUser().catch(() => updateUser({ role: 'host', user_type: 'host' }));
      setShowRestored(false);
      setState({ step: 3, draft: emptyDraft(), createdCar: result.data });
    } catch (error) {
      const refused = isApiError(error) && error.isClientError && error.status !== 401;
      notify.error('Error Adding Vehicle', messageOf(error, ADD_VEHICLE_FAILED), 8000);
      const details = refused ? [...new Set([error.message, ...Object.values(error.errors)])] : [];
      setSubmitError(details);
      throw error;
    }
  };

  const finish = () => {
    clearWizardState();
    navigate(PATHS.hostDashboard);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === 'Enter' && shouldBlockEnter(step, event.target)) event.preventDefault();
  };

  const stepInfo = WIZARD_STEPS[step - 1]!;

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 lg:px-8 lg:py-10">
      <header className="mb-8">
        <p className="text-sm font-semibold text-brand-700">{user && isHost(user) ? 'Add a vehicle' : 'Become a host'}</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight text-stone-900 sm:text-3xl">List your car on Karoo</h1>
        <p className="mt-2 max-w-2xl text-stone-600">Share your car when you are not using it. Listing takes about 10 minutes, and our team verifies every car before it goes live.</p>
        {step === 1 ? (
          <ul className="mt-5 grid gap-3 md:grid-cols-3">
            {PERKS.map((perk) => (
              <li key={perk.title} className="flex gap-3 rounded-xl bg-white p-3 ring-1 ring-stone-200/80">
                <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-600">{perk.icon}</span>
                <span className="min-w-0 text-sm">
                  <span className="block font-semibold text-stone-900">{perk.title}</span>
                  <span className="text-stone-500">{perk.text}</span>
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </header>

      <div className="space-y-4">
        {!user && step < 3 ? (
          <Alert tone="info" title="You will sign in before submitting">
            Fill in your car&apos;s details now. When you submit we will ask you to{' '}
            <Link to={PATHS.login} state={{ from: { pathname: PATHS.becomeHost, search: '', hash: '' } }} className="font-semibold underline underline-offset-2">
              sign in
            </Link>{' '}
            and keep everything you entered.
          </Alert>
        ) : null}
        {showRestored && step < 3 ? (
          <Alert tone="success" title="We kept your listing details">
            {photosLost ? 'Your photos were too large to keep, so please add them again. ' : 'Pick up where you left off. '}
            <button
              type="button"
              className="font-semibold underline underline-offset-2"
              onClick={() => {
                reset();
                setShowRestored(false);
                setMissing([]);
              }}
            >
              Start over
            </button>
          </Alert>
        ) : null}
      </div>

      <div className="-mx-4 mt-6 border-y border-stone-200/80 bg-white shadow-card sm:mx-0 sm:rounded-2xl sm:border-x">
        <div className="border-b border-stone-100 px-4 py-5 sm:px-8">
          <WizardProgress step={step} />
        </div>

        <form onSubmit={submit} onKeyDown={onKeyDown} noValidate aria-labelledby="wizard-step-heading">
          <div className="px-4 py-6 sm:px-8 sm:py-8">
            <div className="mb-6">
              <h2 id="wizard-step-heading" ref={headingRef} tabIndex={-1} className="text-xl font-semibold text-stone-900 focus:outline-none">
                {stepInfo.title}
              </h2>
              <p className="mt-0.5 text-sm text-stone-500">
                {step === 1
                  ? 'Fields marked * are required.'
                  : step === 2
                    ? 'Pick what your car offers and describe it for renters.'
                    : 'Upload your documents so we can verify you and your car.'}
              </p>
            </div>

            {step === 1 ? <VehicleDetailsStep draft={draft} onChange={setDraft} missing={missing} currentYear={currentYear} /> : null}
            {step === 2 ? <FeaturesStep draft={draft} onChange={setDraft} descriptionError={descriptionError} /> : null}
            {step === 3 && createdCar ? (
              <DocumentsStep car={createdCar} documentsPanel={documentsPanel} registrationPanel={renderRegistrationPanel?.(createdCar)} />
            ) : null}

            {submitError && step === 2 ? (
              <Alert tone="danger" role="alert" title={SUBMIT_FAILED_INLINE} className="mt-6">
                {submitError.length ? (
                  <ul className="list-disc pl-5">
                    {submitError.map((line) => (
                      <li key={line}>{line}</li>
                    ))}
                  </ul>
                ) : null}
              </Alert>
            ) : null}
          </div>

          <div className="flex flex-col-reverse gap-3 border-t border-stone-100 px-4 py-4 sm:flex-row sm:items-center sm:justify-between sm:px-8">
            {step === 2 ? (
              <Button variant="secondary" icon={<ArrowLeft className="size-4" aria-hidden="true" />} onClick={() => goTo(1)}>
                Previous
              </Button>
            ) : step === 3 ? (
              <Button variant="secondary" onClick={reset}>
                List Another Car
              </Button>
            ) : (
              <span className="hidden sm:block" />
            )}
            {step === 1 ? (
              <Button onClick={continueToFeatures}>
                Continue
                <ArrowRight className="size-4" aria-hidden="true" />
              </Button>
            ) : null}
            {step === 2 ? (
              <Button type="submit" icon={<Send className="size-4" aria-hidden="true" />} disabled={!draft.description.trim() || createCar.isPending}>
                Submit Listing
              </Button>
            ) : null}
            {step === 3 ? <Button onClick={finish}>Finish</Button> : null}
          </div>
        </form>
      </div>

      <ConfirmDialog
        open={confirmOpen}
        tone="info"
        onClose={() => setConfirmOpen(false)}
        onConfirm={confirm}
        loading={createCar.isPending}
        title="Add Vehicle to Listing"
        description="Please check the details before you add the car."
        confirmLabel="Add Vehicle"
        loadingLabel="Adding Vehicle..."
      >
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
          <dt className="text-stone-500">Car</dt>
          <dd className="font-medium text-stone-900">{carName(draft)}</dd>
          <dt className="text-stone-500">Type</dt>
          <dd className="text-stone-900">{draft.car_type}</dd>
          <dt className="text-stone-500">Plate</dt>
          <dd className="text-stone-900 uppercase">{draft.car_plate_number}</dd>
          <dt className="text-stone-500">Daily price</dt>
          <dd className="text-stone-900">{formatRand(draft.car_rent_price)}</dd>
          <dt className="text-stone-500">Photos</dt>
          <dd className="text-stone-900">{draft.photos.length}</dd>
        </dl>
        <p className="mt-4 text-sm leading-6 text-stone-600">
          The car is reviewed by our team before renters can book it.
          {user && !isHost(user) ? ' Listing your first car makes you a Karoo host.' : ''}
        </p>
      </ConfirmDialog>
    </div>
  );
}
