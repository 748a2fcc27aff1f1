// The Cars tab's one dialog for the actions that need words: Reject a car (notes, required: the
// host is told them), Reject a registration document (notes, required) and Force Return (a reason,
// required). Toasts carry document 3's titles; on failure the dialog stays open.
import type { Car } from '@karoo/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useForceReturn, useVerifyCar, useVerifyRegistrationDocument } from '../api/admin-cars';

export type CarDialogAction = 'reject' | 'reject-document' | 'force-return';

const carName = (car: Car) => `${car.car_year} ${car.car_make} ${car.car_model}`;

const COPY: Record<CarDialogAction, { title: string; description: (car: Car) => string; field: string; placeholder: string; confirm: string; missing: string }> = {
  reject: {
    title: 'Reject car',
    description: (car) => `Reject ${carName(car)} (${car.car_username}) of @${car.car_owner}. The host is told your notes.`,
    field: 'Notes (required)',
    placeholder: 'e.g. The photos do not show the number plate',
    confirm: 'Reject car',
    missing: 'Please add notes: the host is told them.',
  },
  'reject-document': {
    title: 'Reject registration document',
    description: (car) => `Reject the registration document of ${carName(car)} (${car.car_username}). The host is asked to upload it again.`,
    field: 'Notes (required)',
    placeholder: 'e.g. The document is not readable',
    confirm: 'Reject document',
    missing: 'Please add notes: the host is told them.',
  },
  'force-return': {
    title: 'Force return',
    description: (car) => `End the rental of ${carName(car)} (${car.car_username}) now. Its active bookings are completed and the car becomes available.`,
    field: 'Reason (required)',
    placeholder: 'e.g. The renter returned the car to the host',
    confirm: 'Force return',
    missing: 'Please give a reason: it is kept in the audit log.',
  },
};

export function CarActionDialog({ target, onClose }: { target: { action: CarDialogAction; car: Car } | null; onClose: () => void }) {
  const notify = useNotification();
  const verifyCar = useVerifyCar();
  const verifyDocument = useVerifyRegistrationDocument();
  const forceReturn = useForceReturn();
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | undefined>();
  const copy = target ? COPY[target.action] : null;
  const pending = verifyCar.isPending || verifyDocument.isPending || forceReturn.isPending;
  const close = () => {
    setNotes('');
    setError(undefined);
    onClose();
  };

  const submit = async () => {
    if (!target || !copy) return;
    const text = notes.trim();
    if (!text) {
      setError(copy.missing);
      return;
    }
    const { action, car } = target;
    if (action === 'reject') {
      try {
        await verifyCar.mutateAsync({ car, verified: false, notes: text });
        notify.success('Car rejected', `${car.car_username}: @${car.car_owner} is told.`);
        close();
      } catch (failure) {
        notify.error('Car Verification Error', messageOf(failure, 'An error occurred while updating car verification status.'));
      }
    } else if (action === 'reject-document') {
      try {
        await verifyDocument.mutateAsync({ car, verified: false, notes: text });
        notify.success('Registration document rejected', `${car.car_username}: @${car.car_owner} is told.`);
        close();
      } catch (failure) {
        notify.error('Car Verification Error', messageOf(failure, 'An error occurred while updating car verification status.'));
      }
    } else {
      try {
        const result = await forceReturn.mutateAsync({ car, reason: text });
        const count = result.affected_bookings;
        notify.success('Car force returned', `${car.car_username}: ${count} ${count === 1 ? 'booking' : 'bookings'} affected.`);
        close();
      } catch (failure) {
        notify.error('Force Return Failed', messageOf(failure, 'Failed to force return the car. Please try again.'));
      }
    }
  };

  return (
    <Dialog
      open={target !== null}
      onClose={close}
      title={copy?.title ?? ''}
      description={target && copy ? copy.description(target.car) : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={pending}>
            Back
          </Button>
          <Button variant="danger" onClick={() => void submit()} loading={pending}>
            {copy?.confirm ?? 'Confirm'}
          </Button>
        </>
      }
    >
      <label className="block text-sm">
        <span className="mb-1.5 block font-medium text-stone-700">{copy?.field}</span>
        <textarea
          className="min-h-24 w-full rounded-xl border border-stone-300 px-3.5 py-2.5 text-[15px]"
          value={notes}
          maxLength={1000}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setNotes(e.target.value);
            setError(undefined);
          }}
          placeholder={copy?.placeholder}
        />
      </label>
      {error ? (
        <p className="mt-1.5 text-sm text-red-600" role="alert">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
