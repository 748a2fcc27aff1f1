// A car's trip rules and long-trip discounts (issue 23, decision 048), as its row holds them.
import type { TripRules } from '@karoo/shared';
import type { CarRow } from '../../db/schema';

type TripRuleColumns = Pick<
  CarRow,
  | 'min_trip_days'
  | 'max_trip_days'
  | 'min_trip_hours'
  | 'max_trip_hours'
  | 'advance_notice_hours'
  | 'booking_window_months'
  | 'weekly_discount_percent'
  | 'monthly_discount_percent'
>;

/** The rules of a car row (the columns of migration 0030). */
export function tripRulesOf(car: TripRuleColumns): TripRules {
  return {
    min_days: car.min_trip_days,
    max_days: car.max_trip_days,
    min_hours: car.min_trip_hours,
    max_hours: car.max_trip_hours,
    advance_notice_hours: car.advance_notice_hours,
    booking_window_months: car.booking_window_months,
    weekly_discount_percent: car.weekly_discount_percent,
    monthly_discount_percent: car.monthly_discount_percent,
  };
}
