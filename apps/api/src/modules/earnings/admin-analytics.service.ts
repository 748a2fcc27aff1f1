// Admin Analytics: bookings and revenue by week, trip lengths, ratings, cities and utilisation of a
// period of Johannesburg days.
import { analyticsPeriod, ANALYTICS_TOO_LONG, isAnalyticsPeriodTooLong, daysBetween, weeksOf, type AdminAnalytics, type AdminAnalyticsQuery, midnightAfter, startOfDay, todayIn } from '@karoo/shared';
import type { AppContext } from '../../context';
import { badRequest } from '../../lib/app-error';
import * as ledger from '../ledger';
import { getSettings } from '../settings';
import * as repo from './earnings.repository';
import { rand } from './earnings.money';

// ---- Admin Analytics (GET /admin/analytics) ----

/** The analytics of a period of Johannesburg days (default the last 12 weeks ending today). */
export async function adminAnalytics(ctx: AppContext, query: AdminAnalyticsQuery): Promise<AdminAnalytics> {
  const period = analyticsPeriod(query, todayIn(ctx.clock.now()));
  if (isAnalyticsPeriodTooLong(period.from, period.to)) throw badRequest(`${ANALYTICS_TOO_LONG} (from ${period.from} to ${period.to})`, { from: ANALYTICS_TOO_LONG });
  const range: repo.AnalyticsRange = { ...period, start: startOfDay(period.from), end: midnightAfter(period.to) };
  const [settings, weeklyBookings, weeklyRevenue, figures, tripDays, rating, cities, utilisation] = await Promise.all([
    getSettings(ctx),
    repo.analyticsWeeklyBookings(ctx.db, range),
    ledger.sumPlatformRevenueByWeek(ctx.db, range),
    repo.analyticsBookingFigures(ctx.db, range),
    repo.analyticsAverageTripDays(ctx.db, range),
    repo.analyticsAverageRating(ctx.db, range),
    repo.analyticsBusiestCities(ctx.db, range, 5),
    repo.analyticsUtilisation(ctx.db, range),
  ]);
  const bookingsByWeek = new Map(weeklyBookings.map((w) => [w.week_start, w.count]));
  // The platform's revenue by when it moved (a cancellation's correction in its own week).
  const revenueByWeek = new Map(weeklyRevenue.map((w) => [w.weekStart, w.cents]));
  const share = (part: number) => (figures.created === 0 ? 0 : part / figures.created);
  const capacity = utilisation.cars * (daysBetween(period.from, period.to) + 1);
  return {
    period,
    weeks: weeksOf(period.from, period.to).map((week) => ({
      week_start: week,
      bookings: bookingsByWeek.get(week) ?? 0,
      revenue: rand(revenueByWeek.get(week) ?? 0),
    })),
    average_trip_days: tripDays,
    average_rating: rating,
    conversion: share(figures.paid),
    cancellation_rate: share(figures.cancelled),
    rejection_rate: share(figures.rejected),
    bookings: figures.created,
    busiest_cities: cities,
    utilisation: capacity === 0 ? 0 : Math.min(1, utilisation.booked_days / capacity),
    platform_fee: settings.platform_fee,
  };
}
