// The Bookings tab's one dialog for Approve (an optional message to the renter), Reject and Cancel
// (a reason, required: the renter is told it). Toasts carry document 3's titles and the server's
// message; on failure the dialog stays open so the admin can try again or back out.
import type { Booking } from '@karoo/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useAdminBookingAction, type AdminBookingAction } from '../api/admin-bookings';

interface ActionCopy {
  title: string;
  description: (b: Booking) => string;
  field: string;
  placeholder: string;
  required: boolean;
  confirm: string;
  tone: 'success' | 'danger';
  done: string;
  failed: string;
  fallback: string;
}

export const BOOKING_ACTIONS: Record<AdminBookingAction, ActionCopy> = {
  approve: {
    title: 'Approve booking',
    description: (b) => `Accept ${b.booking_id} for ${b.renter.full_name} (@${b.renter.username}). They are asked to pay next.`,
    field: 'Message to the renter (optional)',
    placeholder: 'e.g. Approved by Karoo support',
    required: false,
    confirm: 'Approve booking',
    tone: 'success',
    done: 'Booking Confirmed',
    failed: 'Accept Failed',
    fallback: 'Failed to accept the booking. Please try again.',
  },
  reject: {
    title: 'Reject booking',
    description: (b) => `Reject ${b.booking_id} of ${b.renter.full_name} (@${b.renter.username}). They are told the reason.`,
    field: 'Reason (required)',
    placeholder: 'e.g. The car is not available on these dates',
    required: true,
    confirm: 'Reject booking',
    tone: 'danger',
    done: 'Booking Rejected',
    failed: 'Reject Failed',
    fallback: 'Failed to reject the booking. Please try again.',
  },
  cancel: {
    title: 'Cancel booking',
    description: (b) => `Cancel ${b.booking_id} of ${b.renter.full_name} (@${b.renter.username}). The renter and the host are told the reason.`,
    field: 'Reason (required)',
    placeholder: 'e.g. Cancelled after a dispute',
    required: true,
    confirm: 'Cancel booking',
    tone: 'danger',
    done: 'Booking Cancelled',
    failed: 'Cancel Failed',
    fallback: 'Failed to cancel the booking. Please try again.',
  },
};

export function BookingActionDialog({ target, onClose }: { target: { action: AdminBookingAction; booking: Booking } | null; onClose: () => void }) {
  const notify = useNotification();
  const mutation = useAdminBookingAction();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | undefined>();
  const copy = target ? BOOKING_ACTIONS[target.action] : null;
  const close = () => {
    setMessage('');
    setError(undefined);
    onClose();
  };

  const submit = async () => {
    if (!target || !copy) return;
    const text = message.trim();
    if (copy.required && !text) {
      setError('Please give a reason: the renter is told it.');
      return;
    }
    try {
      await mutation.mutateAsync({ action: target.action, booking: target.booking, ...(text ? { message: text } : {}) });
      notify.success(copy.done, `${target.booking.booking_id}: @${target.booking.renter.username} is told.`);
      close();
    } catch (failure) {
      notify.error(copy.failed, messageOf(failure, copy.fallback));
    }
  };

  return (
    <Dialog
      open={target !== null}
      onClose={close}
      title={copy?.title ?? ''}
      description={target && copy ? copy.description(target.booking) : undefined}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={mutation.isPending}>
            Back
          </Button>
          <Button variant={copy?.tone === 'success' ? 'success' : 'danger'} onClick={() => void submit()} loading={mutation.isPending}>
            {copy?.confirm ?? 'Confirm'}
          </Button>
        </>
      }
    >
      <label className="block text-sm">
        <span className="mb-1.5 block font-medium text-stone-700">{copy?.field}</span>
        <textarea
          className="min-h-24 w-full rounded-xl border border-stone-300 px-3.5 py-2.5 text-[15px]"
          value={message}
          maxLength={1000}
          aria-invalid={error ? true : undefined}
          onChange={(e) => {
            setMessage(e.target.value);
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
