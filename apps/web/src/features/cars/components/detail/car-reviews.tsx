// Guest reviews on the detail page: the average to one decimal, the first 6, and 'Show all'.
import { Star } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { formatDate, initialOf } from '@/lib/format';
import { averageRating, useCarReviews } from '../../api/get-car-reviews';

export const REVIEWS_SHOWN = 6;

function Stars({ rating }: { rating: number }) {
  return (
    <span className="flex" aria-label={`${rating} out of 5 stars`} role="img">
      {[1, 2, 3, 4, 5].map((n) => (
        <Star key={n} className={n <= rating ? 'size-3.5 fill-amber-400 text-amber-400' : 'size-3.5 text-stone-300'} aria-hidden="true" />
      ))}
    </span>
  );
}

export function CarReviews({ carUsername }: { carUsername: string }) {
  const { data: reviews = [], isPending, isError } = useCarReviews(carUsername);
  const [showAll, setShowAll] = useState(false);
  const average = averageRating(reviews);
  const shown = showAll ? reviews : reviews.slice(0, REVIEWS_SHOWN);

  return (
    <section aria-labelledby="reviews-heading" className="border-t border-stone-200 pt-8">
      <h2 id="reviews-heading" className="flex items-center gap-2 text-xl font-semibold text-stone-900">
        <Star className="size-5 fill-amber-400 text-amber-400" aria-hidden="true" />
        {reviews.length ? (
          <span>
            {average.toFixed(1)} · {reviews.length} {reviews.length === 1 ? 'review' : 'reviews'}
          </span>
        ) : (
          <span>Guest reviews</span>
        )}
      </h2>
      {isPending ? (
        <p className="mt-4 text-sm text-stone-500">Loading reviews…</p>
      ) : isError ? (
        <p className="mt-4 text-sm text-stone-500">Reviews could not be loaded right now.</p>
      ) : reviews.length === 0 ? (
        <p className="mt-4 text-sm text-stone-500">No reviews yet. Be the first to take this car on a trip.</p>
      ) : (
        <>
          <ul className="mt-6 grid gap-6 md:grid-cols-2">
            {shown.map((review) => (
              <li key={review.id} className="min-w-0">
                <div className="flex items-center gap-3">
                  {review.reviewer.avatar ? (
                    <img src={review.reviewer.avatar} alt="" className="size-10 rounded-full object-cover" />
                  ) : (
                    <span className="flex size-10 items-center justify-center rounded-full bg-stone-200 font-semibold text-stone-700" aria-hidden="true">
                      {initialOf(review.reviewer.username)}
                    </span>
                  )}
                  <div>
                    <p className="text-sm font-semibold text-stone-900">{review.reviewer.username}</p>
                    <p className="text-xs text-stone-500">{formatDate(review.created_at)}</p>
                  </div>
                </div>
                <div className="mt-2">
                  <Stars rating={review.rating} />
                </div>
                <p className="mt-2 text-sm leading-6 text-stone-700">{review.comment}</p>
              </li>
            ))}
          </ul>
          {reviews.length > REVIEWS_SHOWN ? (
            <Button variant="secondary" className="mt-6" onClick={() => setShowAll((v) => !v)}>
              {showAll ? 'Show fewer' : `Show all ${reviews.length} reviews`}
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}
