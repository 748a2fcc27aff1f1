import { describe, expect, it } from 'vitest';
import { calculatePrice } from './pricing';
import { DEFAULT_SETTINGS } from './platform-settings';
import { updateTripRulesBodySchema } from './trip-rules-schema';
import {
  addMonths,
  DEFAULT_TRIP_RULES,
  describeDiscounts,
  describeTripRules,
  earliestReturnDate,
  noticeLabel,
  pickupDayRefusal,
  tripDiscount,
  tripRuleFailure,
  type TripRules,
} from './trip-rules';

const rules = (changes: Partial<TripRules> = {}): TripRules => ({ ...DEFAULT_TRIP_RULES, ...changes });
// 10:00 in Johannesburg on 10 March 2030.
const NOW = new Date('2030-03-10T08:00:00Z');
const TODAY = '2030-03-10';
const daily = (start: string, end: string, startTime = '09:00') => ({ start_date: start, end_date: end, start_time: startTime, end_time: '17:00', is_hourly_booking: false });

describe('words', () => {
  it('names the notice as the host chose it', () => {
    expect(noticeLabel(24)).toBe("1 day's notice");
    expect(noticeLabel(48)).toBe("2 days' notice");
    expect(noticeLabel(3)).toBe("3 hours' notice");
    expect(noticeLabel(1)).toBe("1 hour's notice");
    expect(noticeLabel(168)).toBe("1 week's notice");
  });
  it('says the rules and the discounts on the car page; nothing for the defaults', () => {
    expect(describeTripRules(DEFAULT_TRIP_RULES)).toEqual([]);
    expect(describeTripRules(rules({ min_days: 2, advance_notice_hours: 24 })).join(' · ')).toBe("Minimum 2 days · 1 day's notice");
    expect(describeTripRules(rules({ max_days: 14, booking_window_months: 3 }))).toEqual(['Maximum 14 days', 'Bookable up to 3 months ahead']);
    expect(describeDiscounts(rules({ weekly_discount_percent: 10 }))).toEqual(['10% off weekly trips']);
    expect(describeDiscounts(rules({ weekly_discount_percent: 10, monthly_discount_percent: 20 }))).toEqual(['10% off weekly trips', '20% off monthly trips']);
  });
});

describe('calendar months', () => {
  it('keeps the day, or the month’s last day', () => {
    expect(addMonths('2030-03-10', 3)).toBe('2030-06-10');
    expect(addMonths('2030-01-31', 1)).toBe('2030-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2030-11-30', 3)).toBe('2031-02-28');
    expect(addMonths('2030-12-15', 12)).toBe('2031-12-15');
  });
});

describe('a request against the rules', () => {
  it('notice: exactly the notice passes, one minute less does not', () => {
    const r = rules({ advance_notice_hours: 24 });
    expect(tripRuleFailure(r, daily('2030-03-11', '2030-03-12', '10:00'), NOW, TODAY)).toBeNull();
    expect(tripRuleFailure(r, daily('2030-03-11', '2030-03-12', '09:59'), NOW, TODAY)?.message).toBe("This car needs 1 day's notice.");
    expect(pickupDayRefusal(r, '2030-03-11', '09:59', NOW, TODAY)?.code).toBe('needs_notice');
    expect(pickupDayRefusal(r, '2030-03-11', '10:00', NOW, TODAY)).toBeNull();
  });
  it('no notice: any pickup today, as before', () => {
    expect(tripRuleFailure(DEFAULT_TRIP_RULES, daily(TODAY, TODAY, '06:00'), NOW, TODAY)).toBeNull();
  });
  it('length in days and hours, and the window', () => {
    const r = rules({ min_days: 2, max_days: 14, min_hours: 2, max_hours: 4, booking_window_months: 3 });
    expect(tripRuleFailure(r, daily('2030-03-20', '2030-03-21'), NOW, TODAY)?.message).toBe('Minimum trip: 2 days.');
    expect(tripRuleFailure(r, daily('2030-03-20', '2030-03-22'), NOW, TODAY)).toBeNull();
    expect(tripRuleFailure(r, daily('2030-03-20', '2030-04-03'), NOW, TODAY)).toBeNull();
    expect(tripRuleFailure(r, daily('2030-03-20', '2030-04-04'), NOW, TODAY)?.message).toBe('Maximum trip: 14 days.');
    const hourly = (from: string, to: string) => ({ start_date: '2030-03-20', end_date: '2030-03-20', start_time: from, end_time: to, is_hourly_booking: true });
    expect(tripRuleFailure(r, hourly('09:00', '10:00'), NOW, TODAY)?.message).toBe('Minimum hourly trip: 2 hours.');
    expect(tripRuleFailure(r, hourly('09:00', '13:00'), NOW, TODAY)).toBeNull();
    expect(tripRuleFailure(r, hourly('09:00', '13:30'), NOW, TODAY)?.message).toBe('Maximum hourly trip: 4 hours.');
    expect(tripRuleFailure(r, daily('2030-06-08', '2030-06-10'), NOW, TODAY)).toBeNull();
    expect(tripRuleFailure(r, daily('2030-06-08', '2030-06-11'), NOW, TODAY)?.message).toBe('This car can be booked at most 3 months ahead.');
    expect(earliestReturnDate(r, '2030-03-20')).toBe('2030-03-22');
    expect(earliestReturnDate(DEFAULT_TRIP_RULES, '2030-03-20')).toBe('2030-03-20');
  });
});

describe('the host’s form', () => {
  it('accepts empty maximum and window as none, refuses crossed limits', () => {
    const parsed = updateTripRulesBodySchema.parse({ ...DEFAULT_TRIP_RULES, max_days: '', booking_window_months: '' });
    expect(parsed).toMatchObject({ max_days: null, booking_window_months: null });
    const crossed = updateTripRulesBodySchema.safeParse({ ...DEFAULT_TRIP_RULES, min_days: 3, max_days: 2 });
    expect(crossed.success).toBe(false);
  });
});

describe('discounts', () => {
  it('weekly from 7 days, monthly from 28, never hourly', () => {
    const r = rules({ weekly_discount_percent: 10, monthly_discount_percent: 20 });
    expect(tripDiscount(r, { isHourly: false, days: 6 })).toEqual({ percent: 0, kind: null });
    expect(tripDiscount(r, { isHourly: false, days: 7 })).toEqual({ percent: 10, kind: 'weekly' });
    expect(tripDiscount(r, { isHourly: false, days: 27 })).toEqual({ percent: 10, kind: 'weekly' });
    expect(tripDiscount(r, { isHourly: false, days: 28 })).toEqual({ percent: 20, kind: 'monthly' });
    expect(tripDiscount(r, { isHourly: true, days: 1 })).toEqual({ percent: 0, kind: null });
    // No monthly discount: the weekly one goes on.
    expect(tripDiscount(rules({ weekly_discount_percent: 10 }), { isHourly: false, days: 30 })).toEqual({ percent: 10, kind: 'weekly' });
  });
  it('is a line of the price, rounded to whole rand, and every fee is taken after it', () => {
    const price = calculatePrice({ dailyPrice: 455.5, isHourly: false, days: 8, hours: 0, settings: DEFAULT_SETTINGS, discounts: rules({ weekly_discount_percent: 15 }) });
    // 8 x R455.50 = R3 644; 15% = R546.60, rounded to R547.
    expect(price.cents).toMatchObject({ rental: 364_400, discount: 54_700, subtotal: 309_700 });
    expect(price.discountLabel).toBe('Weekly discount (15%)');
    expect(price.discountRate).toBe(15);
    expect(price.cents.serviceFee).toBe(31_000);
    expect(price.cents.carOwnerEarnings).toBe(Math.round((309_700 * 0.75) / 100) * 100);
    const none = calculatePrice({ dailyPrice: 455.5, isHourly: false, days: 8, hours: 0, settings: DEFAULT_SETTINGS });
    expect(none.cents).toMatchObject({ rental: 364_400, discount: 0, subtotal: 364_400 });
    expect(none.discountLabel).toBeNull();
  });
});
