// A completed trip's two reviews on its card (decision 043): the host's "Review the renter", and for
// both sides where the reviews stand. Neither is shown until both are in or the 14 days are over, so
// the author reads "Your review will appear when <name> reviews you, or on <date>".
import type { Booking, Review } from '@karoo/shared';
import { Star } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatDate } from '@/lib/format';
import { useBookingReviews } from '../api/booking-reviews';
import type { BookingRole } from '../utils/booking-actions';
import { ReviewDialog } from './review-dialog';

function ReviewQuote({ heading, review }: { heading: string; review: Review }) {
  return (
    <div>
      <h4 className="font-semibold text-stone-900">{heading}</h4>
      <p className="text-stone-700">
        <span aria-label={`${review.rating} out of 5 stars`} className="text-amber-700">
          {'★'.repeat(review.rating)}
        </span>{' '}
        “{review.comment}”
      </p>
    </div>
  );
}

export function BookingReviewsPanel({ booking, role }: { booking: Booking; role: BookingRole }) {
  const [writing, setWriting] = useState(false);
  const view = useBookingReviews(booking.id, booking.status === 'completed').data;
  if (!view) return null;
  const ends = view.window_ends_at ? formatDate(view.window_ends_at) : null;
  const isClosed = !view.can_review && !view.mine;
  const theirHeading = role === 'owner' ? `${view.other_name}’s review of your car` : `${view.other_name}’s review of you`;
  return (
    <section aria-label="Reviews" className="space-y-2 border-t border-stone-100 p-4 text-sm sm:px-5" data-testid="booking-reviews">
      {view.mine ? <ReviewQuote heading="Your review" review={view.mine} /> : null}
      {view.theirs ? <ReviewQuote heading={theirHeading} review={view.theirs} /> : null}
      {view.mine && !view.revealed ? (
        <p className="text-stone-600" role="status">
          Your review will appear when {view.other_name} reviews you, or on {ends}.
        </p>
      ) : null}
      {!view.mine && view.can_review ? (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-stone-600">Reviews appear together once you both have reviewed, or on {ends}. You can review until then.</p>
          {role === 'owner' ? (
            <Button onClick={() => setWriting(true)} icon={<Star className="size-4" aria-hidden="true" />}>
              Review the renter
            </Button>
          ) : null}
        </div>
      ) : null}
      {isClosed && !view.theirs ? <p className="text-stone-500">The review window closed on {ends}.</p> : null}
      {writing ? <ReviewDialog booking={booking} about="renter" onClose={() => setWriting(false)} /> : null}
    </section>
  );
}
