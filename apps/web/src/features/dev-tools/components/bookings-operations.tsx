// The playground's Bookings tab (document 3): create a booking with the playground's payload
// {car_username, user_username, start_date, end_date, total_cost, duration_days} and create a
// review {car_username, user_username, rating, comment}. The booking's dates start as a fixed
// two-day trip a fortnight ahead; the server computes the price and ignores the sent cost.
import { addDays, REVIEW_COMMENT_MAX, RATING_LABELS, todayIn } from '@karoo/shared';
import { CalendarPlus, Star } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { apiClient } from '@/lib/api-client';
import { isBlank, OperationCard, SelectField, type FieldErrors, type OperationProps } from './operation-card';

/** Document 3 section 5. */
export const REVIEW_MESSAGES = {
  car: 'Create Review needs a car username',
  user: 'Create Review needs a user username',
} as const;

const dayCount = (start: string, end: string) => Math.round((Date.parse(end) - Date.parse(start)) / 86_400_000);

export function BookingsOperations({ run, busy }: OperationProps) {
  const [booking, setBooking] = useState(() => {
    const start = addDays(todayIn(), 14);
    return { car_username: '', user_username: '', start_date: start, end_date: addDays(start, 2) };
  });
  const [bookingErrors, setBookingErrors] = useState<Record<string, string>>({});
  const [review, setReview] = useState({ car_username: '', user_username: '', rating: '5', comment: 'Great car, smooth pickup and return.' });
  const [reviewErrors, setReviewErrors] = useState<FieldErrors<'car_username' | 'user_username' | 'comment'>>({});

  const bookingField = (name: keyof typeof booking) => ({
    value: booking[name],
    error: bookingErrors[name],
    onChange: (event: { target: { value: string } }) => {
      setBooking((current) => ({ ...current, [name]: event.target.value }));
      setBookingErrors((current) => ({ ...current, [name]: '' }));
    },
  });
  const reviewField = (name: 'car_username' | 'user_username' | 'comment') => ({
    value: review[name],
    error: reviewErrors[name],
    onChange: (event: { target: { value: string } }) => {
      setReview((current) => ({ ...current, [name]: event.target.value }));
      setReviewErrors((current) => ({ ...current, [name]: undefined }));
    },
  });

  const createBooking = async () => {
    const body = {
      car_username: booking.car_username.trim(),
      ...(isBlank(booking.user_username) ? {} : { user_username: booking.user_username.trim() }),
      start_date: booking.start_date,
      end_date: booking.end_date,
      duration_days: Math.max(dayCount(booking.start_date, booking.end_date), 0),
    };
    const result = await run('Create Booking', () => apiClient.post('/booking/create', body), { writes: true });
    setBookingErrors(result.errors);
  };

  const createReview = async () => {
    const missing: typeof reviewErrors = {};
    if (isBlank(review.car_username)) missing.car_username = REVIEW_MESSAGES.car;
    if (isBlank(review.user_username)) missing.user_username = REVIEW_MESSAGES.user;
    setReviewErrors(missing);
    if (Object.keys(missing).length) return;
    const result = await run(
      'Create Review',
      () =>
        apiClient.post('/review/create', {
          car_username: review.car_username.trim(),
          user_username: review.user_username.trim(),
          rating: Number(review.rating),
          comment: review.comment,
        }),
      { writes: true },
    );
    setReviewErrors(result.errors);
  };

  const isBusy = busy !== null;
  return (
    <div className="space-y-6">
      <OperationCard
        title="Create Booking"
        description="POST /api/booking/create: a daily booking; user username books on that user's behalf."
        icon={<CalendarPlus className="size-5" aria-hidden="true" />}
        onSubmit={() => void createBooking()}
        actions={
          <Button type="submit" loading={busy === 'Create Booking'} disabled={isBusy}>
            Create Booking
          </Button>
        }
      >
        <Input label="Car username" autoComplete="off" {...bookingField('car_username')} />
        <Input label="User username" autoComplete="off" hint="Empty: the booking is yours" {...bookingField('user_username')} />
        <Input label="Start date" type="date" {...bookingField('start_date')} />
        <Input label="End date" type="date" {...bookingField('end_date')} />
      </OperationCard>

      <OperationCard
        title="Create Review"
        description="POST /api/review/create: for a completed booking of that car."
        icon={<Star className="size-5" aria-hidden="true" />}
        onSubmit={() => void createReview()}
        actions={
          <Button type="submit" loading={busy === 'Create Review'} disabled={isBusy}>
            Create Review
          </Button>
        }
      >
        <Input label="Car username" autoComplete="off" {...reviewField('car_username')} />
        <Input label="User username" autoComplete="off" {...reviewField('user_username')} />
        <SelectField
          label="Rating"
          value={review.rating}
          onChange={(rating) => setReview((current) => ({ ...current, rating }))}
          options={[5, 4, 3, 2, 1].map((n) => ({ value: String(n), label: `${n} - ${RATING_LABELS[n as 1 | 2 | 3 | 4 | 5]}` }))}
        />
        <Input label="Comment" maxLength={REVIEW_COMMENT_MAX} {...reviewField('comment')} />
      </OperationCard>
    </div>
  );
}
