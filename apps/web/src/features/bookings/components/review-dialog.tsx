// Leave a review for a completed trip: 1-5 stars (default 5) with labels, a required comment of at
// most REVIEW_COMMENT_MAX characters (the server's limit, one constant in packages/shared) with a
// live counter. The box takes no more than that, and counts what is sent: the text without its
// surrounding spaces, as the server trims it before it counts. The host reviews the renter with the
// same form (about="renter", decision 043); both reviews are shown together.
import { RATING_LABELS, REVIEW_COMMENT_MAX, type Booking } from '@karoo/shared';
import { clsx } from 'clsx';
import { Star } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useNotification } from '@/components/ui/toast';
import { messageOf } from '@/lib/api-client';
import { useCreateRenterReview } from '../api/booking-reviews';
import { useCreateReview } from '../api/bookings';

export const REVIEW_FAILED = 'Failed to submit your review. Please try again.';

export function validateReviewComment(comment: string): string | null {
  if (!comment.trim()) return 'Please write a comment about your trip.';
  if (comment.trim().length > REVIEW_COMMENT_MAX) return `Comment must be at most ${REVIEW_COMMENT_MAX} characters`;
  return null;
}

const WORDS = {
  car: (booking: Booking) => ({
    title: 'Leave a review',
    description: `How was your trip in the ${booking.car_name}?`,
    placeholder: 'Tell other renters about the car and the host',
  }),
  renter: (booking: Booking) => ({
    title: 'Review the renter',
    description: `How was ${booking.renter.full_name || booking.user_username} as a renter?`,
    placeholder: 'Tell other hosts how the renter looked after your car',
  }),
};

export function ReviewDialog({ booking, about = 'car', onClose }: { booking: Booking; about?: 'car' | 'renter'; onClose: () => void }) {
  const [rating, setRating] = useState(5);
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const createCarReview = useCreateReview();
  const createRenterReview = useCreateRenterReview();
  const create = about === 'car' ? createCarReview : createRenterReview;
  const words = WORDS[about](booking);
  const notify = useNotification();
  const commentId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = validateReviewComment(comment);
    setError(problem);
    if (problem) return;
    try {
      if (about === 'car') await createCarReview.mutateAsync({ booking, rating, comment });
      else await createRenterReview.mutateAsync({ bookingId: booking.id, rating, comment });
      notify.success('Review Submitted', 'It appears together with theirs, once both of you have reviewed or the 14 days are over.');
      onClose();
    } catch (error) {
      notify.error('Review Failed', messageOf(error, REVIEW_FAILED));
    }
  }

  const length = comment.trim().length;
  const over = length > REVIEW_COMMENT_MAX;
  return (
    <Dialog open onClose={onClose} title={words.title} description={words.description}>
      <form onSubmit={submit} noValidate className="space-y-4">
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-stone-700">Rating</legend>
          <div className="flex items-center gap-1" role="radiogroup" aria-label="Rating">
            {([1, 2, 3, 4, 5] as const).map((value) => (
              <button
                key={value}
                type="button"
                role="radio"
                aria-checked={rating === value}
                aria-label={`${value} star${value === 1 ? '' : 's'} – ${RATING_LABELS[value]}`}
                onClick={() => setRating(value)}
                className="rounded-md p-1 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
              >
                <Star className={clsx('size-8', value <= rating ? 'fill-amber-400 text-amber-400' : 'text-stone-300')} aria-hidden="true" />
              </button>
            ))}
            <span className="ml-2 text-sm font-semibold text-stone-800" data-testid="rating-label">
              {RATING_LABELS[rating as 1 | 2 | 3 | 4 | 5]}
            </span>
          </div>
        </fieldset>
        <div>
          <label htmlFor={commentId} className="mb-1.5 block text-sm font-medium text-stone-700">
            Your review
          </label>
          <textarea
            id={commentId}
            rows={5}
            value={comment}
            maxLength={REVIEW_COMMENT_MAX}
            onChange={(e) => setComment(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${commentId}-count${error ? ` ${commentId}-error` : ''}`}
            placeholder={words.placeholder}
            className={clsx(
              'w-full rounded-lg border px-3 py-2 text-sm shadow-sm focus:outline-none focus:ring-4 focus:ring-brand-500/20',
              error || over ? 'border-red-400' : 'border-stone-300 focus:border-brand-500',
            )}
          />
          <div className="mt-1 flex justify-between gap-2 text-xs">
            <span id={`${commentId}-error`} className="text-red-600" role={error ? 'alert' : undefined}>
              {error}
            </span>
            <span id={`${commentId}-count`} className={over ? 'font-semibold text-red-600' : 'text-stone-500'}>
              {length}/{REVIEW_COMMENT_MAX}
              <span className="sr-only"> characters</span>
            </span>
          </div>
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={create.isPending} disabled={over}>
            Submit Review
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
