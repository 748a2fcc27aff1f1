// Setting a car's trip rules and long-trip discounts (issue 23, decision 048): its host (or an
// admin) replaces the whole set, validated by the shared schema the host's panel uses.
import type { TripRulesInput } from '@karoo/shared';
import type { AppContext } from '../../context';
import type { UserRow } from '../../db/schema';
import { findManageableCar, reload, saveCar, type CarRecord } from './cars.service';

/** PATCH /car/updateTripRules/{id}: the owner or an admin replaces the whole set (validated by updateTripRulesBodySchema). */
export async function updateTripRules(ctx: AppContext, viewer: UserRow, idOrUsername: string, rules: TripRulesInput): Promise<CarRecord> {
  const car = await findManageableCar(ctx, viewer, idOrUsername);
  const changes = {
    min_trip_days: rules.min_days,
    max_trip_days: rules.max_days,
    min_trip_hours: rules.min_hours,
    max_trip_hours: rules.max_hours,
    advance_notice_hours: rules.advance_notice_hours,
    booking_window_months: rules.booking_window_months,
    weekly_discount_percent: rules.weekly_discount_percent,
    monthly_discount_percent: rules.monthly_discount_percent,
  };
  const changed = Object.fromEntries(Object.entries(changes).filter(([key, value]) => car[key as keyof typeof changes] !== value));
  if (Object.keys(changed).length > 0) await saveCar(ctx, viewer, car, changed);
  return reload(ctx, car.id);
}
