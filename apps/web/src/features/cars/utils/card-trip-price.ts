// A browse card's price for the searched dates (issue 32, decision 060): "R 1 206 for 3 days", the
// trip's total as the booking panel and the server compute it (the shared calculatePrice: the
// rental, the car's long-trip discount, the service fee), before the pickup and cover options that
// the renter chooses on the car's page.
import { calculatePrice, durationDays, type CarCard, type PricingSettings } from '@karoo/shared';
import { formatRand } from '@/lib/format';
import type { TripDates } from '@/lib/trip-dates';

export interface CardTripPrice {
  /** Rand. */
  total: number;
  days: number;
  /** "R 1 206 for 3 days". */
  label: string;
}

export function cardTripPrice(card: Pick<CarCard, 'price_per_day' | 'discounts'>, trip: Pick<TripDates, 'startDate' | 'endDate'>, settings: PricingSettings): CardTripPrice {
  // Calendar days, a same-day trip counting one, as the server stores duration_days.
  const days = durationDays(trip.startDate, trip.endDate);
  const discounts = card.discounts ? { weekly_discount_percent: card.discounts.weekly, monthly_discount_percent: card.discounts.monthly } : null;
  const price = calculatePrice({ dailyPrice: card.price_per_day, isHourly: false, days, hours: 0, settings, discounts });
  return { total: price.total, days, label: `${formatRand(price.total)} for ${days} ${days === 1 ? 'day' : 'days'}` };
}
