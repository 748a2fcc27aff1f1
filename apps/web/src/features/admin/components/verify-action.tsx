// The admin panel's Verify for a user and for a car (issue 18; docs/decisions/033): the button
// mirrors the server's rule (`userVerificationBlocker`, `carVerificationGaps` in @karoo/shared). While
// the server would refuse, it is disabled and the reason is written beside it, in words anyone
// can read (not only a tooltip); when it is enabled it asks for confirmation before verifying.
import { carVerificationBlocker, carVerificationGaps, todayIn, type Car } from '@karoo/shared';
import { Check } from 'lucide-react';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useSettings } from '@/lib/queries/settings';
import { useVerifyCar } from '../api/admin-cars';

export interface VerifyButtonProps {
  /** Who or what is verified, for the accessible name: "Verify {name}". */
  name: string;
  /** Why it cannot be verified yet, or null. */
  blocker: string | null;
  onClick: () => void;
  loading?: boolean;
  /** The id of an element on screen that already shows the reason (the Manage Docs summary). */
  reasonShownAt?: string;
}

/** Verify, or Verify disabled with its reason on the next line (it takes the whole line of a wrapping row). */
export function VerifyButton({ name, blocker, onClick, loading, reasonShownAt }: VerifyButtonProps) {
  const ownReasonId = useId();
  const reasonId = reasonShownAt ?? ownReasonId;
  return (
    <>
      <Button
        size="sm"
        variant="success"
        icon={<Check className="size-4" aria-hidden="true" />}
        aria-label={`Verify ${name}`}
        aria-describedby={blocker ? reasonId : undefined}
        disabled={blocker !== null}
        loading={loading}
        onClick={onClick}
      >
        Verify
      </Button>
      {blocker && !reasonShownAt ? (
        <p id={reasonId} data-testid="verify-blocker" className="max-w-72 basis-full text-xs leading-5 text-amber-800">
          {blocker}
        </p>
      ) : null}
    </>
  );
}

/** What blocks a car's verification, as the server judges it (today's minimum car value included). */
export function useCarVerificationBlocker(car: Car): string | null {
  const settings = useSettings();
  const gaps = carVerificationGaps(car, { minCarValue: settings.data?.minCarValue ?? 0, currentYear: Number(todayIn(new Date()).slice(0, 4)) });
  return carVerificationBlocker(gaps);
}

const carReasonId = (car: Car) => `verify-reason-${car.id}`;

/**
 * Why the car cannot be verified yet, shown in the Cars tab's Verification column beside the
 * status (the Actions column stays narrow enough for the table to fit at 1280 px); nothing once
 * it can be.
 */
export function CarVerificationReason({ car }: { car: Car }) {
  const blocker = useCarVerificationBlocker(car);
  if (car.verification_status === 'verified' || !blocker) return null;
  return (
    <p id={carReasonId(car)} data-testid="verify-blocker" className="mt-1.5 max-w-48 text-xs leading-5 text-amber-800">
      {blocker}
    </p>
  );
}

/** The Cars tab's Verify: disabled while the car lacks something (CarVerificationReason says what), else confirmed first. */
export function CarVerifyAction({ car }: { car: Car }) {
  const notify = useNotification();
  const verification = useVerifyCar();
  const blocker = useCarVerificationBlocker(car);
  const [confirming, setConfirming] = useState(false);

  const verify = async () => {
    try {
      await verification.mutateAsync({ car, verified: true });
      notify.success('Car verified', `${car.car_username} is now listed.`);
    } catch (error) {
      notify.error('Car Verification Error', messageOf(error, 'An error occurred while updating car verification status.'));
      throw error;
    }
  };

  return (
    <>
      <VerifyButton name={car.car_username} blocker={blocker} reasonShownAt={carReasonId(car)} onClick={() => setConfirming(true)} />
      <ConfirmDialog
        open={confirming}
        tone="success"
        title="Verify this car?"
        description={`${car.car_year} ${car.car_make} ${car.car_model} (${car.car_username}) of @${car.car_owner} is listed publicly: renters can find and book it. Its registration document is approved and it has ${car.images.length} ${car.images.length === 1 ? 'photo' : 'photos'}.`}
        confirmLabel="Verify car"
        loadingLabel="Verifying…"
        onConfirm={verify}
        onClose={() => setConfirming(false)}
      />
    </>
  );
}
