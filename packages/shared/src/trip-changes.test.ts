import { describe, expect, it } from 'vitest';
import { calculatePrice } from './pricing';
import { changeAnswerDeadline, quoteTripChange, tripChangeRefusal, type ChangeableTrip } from './trip-changes';

// Worked by hand: a R 500 car with a 10% weekly discount, R 100 a day of cover, a 10% service fee
// and a 20% host fee, booked Fri 5 Mar 2027 10:00 → Mon 8 Mar 10:00 (3 days), paid a month before.
const discounts = { weekly_discount_percent: 10, monthly_discount_percent: 0 };
const sast = (date: string, time: string) => new Date(`${date}T${time}:00+02:00`);

function booked(days: number, start = '2027-03-05'): ChangeableTrip {
  const end = new Date(Date.parse(`${start}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const p = calculatePrice({ dailyPrice: 500, isHourly: false, days, hours: 0, insuranceDailyRate: 100, settings: { platformCommission: 10, platform_fee: 20 }, discounts });
  return {
    start_date: start,
    end_date: end,
    start_time: '10:00',
    end_time: '10:00',
    is_hourly_booking: false,
    duration_days: days,
    duration_hours: null,
    subtotal_cents: p.cents.subtotal,
    discount_cents: p.cents.discount,
    service_fee_cents: p.cents.serviceFee,
    insurance_fee_cents: p.cents.insuranceFee,
    pickup_fee_cents: 0,
    total_price_cents: p.cents.total,
    car_owner_earnings_cents: p.cents.carOwnerEarnings,
    service_fee_rate: 10,
    commission_rate: 20,
    insurance_daily_rate_cents: 10_000,
    paid_at: sast('2027-02-05', '12:00'),
  };
}

const early = sast('2027-03-01', '12:00');
const inLastDay = sast('2027-03-04', '18:00');

describe('quoteTripChange, worked by hand', () => {
  it('an extension from 3 to 7 days crosses the weekly discount: R 1 950 → R 4 165', () => {
    const trip = booked(3);
    expect(trip.total_price_cents).toBe(195_000); // 1 500 + 150 fee + 300 cover
    const q = quoteTripChange(trip, { ...trip, end_date: '2027-03-12' }, discounts, early);
    // 7 × 500 = 3 500, less 10% = 3 150; fee 315; cover 700: 4 165.
    expect(q.after).toMatchObject({ rental: 350_000, discount: 35_000, subtotal: 315_000, serviceFee: 31_500, insuranceFee: 70_000, total: 416_500, hostEarnings: 252_000, discountRate: 10 });
    expect(q.difference).toMatchObject({ subtotal: 165_000, serviceFee: 16_500, insuranceFee: 40_000, total: 221_500, hostEarnings: 132_000, platform: 89_500 });
    expect(q).toMatchObject({ removedMinutes: 0, keptCents: 0, netCents: 221_500 });
    expect(q.summary).toMatch(/You pay R\s2\s215 when the host accepts/);
  });

  it('a shortening from 7 to 6 days loses the discount: it saves only R 265', () => {
    const trip = booked(7);
    expect(trip.total_price_cents).toBe(416_500);
    const q = quoteTripChange(trip, { ...trip, end_date: '2027-03-11' }, discounts, early);
    // 6 × 500 = 3 000, no discount; fee 300; cover 600: 3 900.
    expect(q.after).toMatchObject({ subtotal: 300_000, discount: 0, total: 390_000, hostEarnings: 240_000 });
    expect(q).toMatchObject({ keptCents: 0, netCents: -26_500, removedMinutes: 24 * 60 });
  });

  it('a shortening while free cancellation is open refunds the whole difference', () => {
    const trip = booked(3);
    const q = quoteTripChange(trip, { ...trip, end_date: '2027-03-07' }, discounts, early);
    expect(q.after.total).toBe(130_000);
    expect(q).toMatchObject({ keptCents: 0, netCents: -65_000 });
  });

  it('a shortening in the last 24 hours keeps the late fee (a day\'s rental, R 500) of the day given up', () => {
    const trip = booked(3);
    const q = quoteTripChange(trip, { ...trip, end_date: '2027-03-07' }, discounts, inLastDay);
    // Given up: 1 day of 3, R 500 of rental; the late fee of a 3-day trip is one day, R 500: all kept.
    expect(q).toMatchObject({ keptCents: 50_000, keptHostCents: 40_000, keptPlatformCents: 10_000 });
    // Back: the day's R 50 service fee and R 100 cover.
    expect(q.netCents).toBe(-15_000);
  });

  it('a move inside the free window is free; outside it, the policy keeps the late fee', () => {
    const trip = booked(3);
    const moved = { ...trip, start_date: '2027-03-06', end_date: '2027-03-09' };
    expect(quoteTripChange(trip, moved, discounts, early)).toMatchObject({ netCents: 0, keptCents: 0, removedMinutes: 24 * 60 });
    const late = quoteTripChange(trip, moved, discounts, inLastDay);
    expect(late).toMatchObject({ keptCents: 50_000, netCents: 50_000 });
    expect(late.summary).toMatch(/^The new trip costs the same\. The cancellation policy keeps R\s500/);
  });

  it('a change during the trip moves its return: one more day is R 650', () => {
    const trip = booked(3);
    const q = quoteTripChange(trip, { ...trip, end_date: '2027-03-09' }, discounts, sast('2027-03-06', '12:00'));
    expect(q).toMatchObject({ keptCents: 0, netCents: 65_000 });
    expect(q.after.total).toBe(260_000);
  });

  it('an hourly trip is priced at its own hourly rate', () => {
    const p = calculatePrice({ dailyPrice: 500, isHourly: true, days: 1, hours: 3, settings: { platformCommission: 10, platform_fee: 20 } });
    const trip: ChangeableTrip = {
      ...booked(1),
      end_date: '2027-03-05',
      end_time: '13:00',
      is_hourly_booking: true,
      duration_days: 1,
      duration_hours: 3,
      subtotal_cents: p.cents.subtotal,
      discount_cents: 0,
      service_fee_cents: p.cents.serviceFee,
      insurance_fee_cents: 0,
      insurance_daily_rate_cents: 0,
      total_price_cents: p.cents.total,
      car_owner_earnings_cents: p.cents.carOwnerEarnings,
    };
    // R 50 an hour: 3 h = 150 + 15 fee; 5 h = 250 + 25.
    const q = quoteTripChange(trip, { ...trip, end_time: '15:00' }, null, early);
    expect(q.after).toMatchObject({ subtotal: 25_000, total: 27_500 });
    expect(q.netCents).toBe(11_000);
  });
});

describe('changeAnswerDeadline', () => {
  it('is 8 hours, cut short by the start; during the trip, by its end', () => {
    const trip = booked(3);
    expect(changeAnswerDeadline(trip, early)).toEqual(sast('2027-03-01', '20:00'));
    expect(changeAnswerDeadline(trip, sast('2027-03-05', '06:00'))).toEqual(sast('2027-03-05', '10:00'));
    expect(changeAnswerDeadline(trip, sast('2027-03-08', '06:00'))).toEqual(sast('2027-03-08', '10:00'));
  });
});

describe('tripChangeRefusal', () => {
  const rules = { min_days: 1, max_days: 14, min_hours: 1, max_hours: 12 };
  const base = { rules, maxRentalDays: 30, otherHolds: [], bufferMinutes: 0 };
  const trip = booked(3);

  it('allows a longer trip, and refuses the same times, a clash, a rule and a moved start once started', () => {
    expect(tripChangeRefusal({ ...base, trip, next: { ...trip, end_date: '2027-03-10' }, now: early })).toBeNull();
    expect(tripChangeRefusal({ ...base, trip, next: { ...trip }, now: early })?.code).toBe('unchanged');
    const clash = [{ from: sast('2027-03-09', '09:00').getTime(), to: sast('2027-03-10', '12:00').getTime() }];
    expect(tripChangeRefusal({ ...base, otherHolds: clash, trip, next: { ...trip, end_date: '2027-03-10' }, now: early })?.code).toBe('unavailable');
    expect(tripChangeRefusal({ ...base, trip, next: { ...trip, end_date: '2027-03-25' }, now: early })?.message).toBe('Maximum trip: 14 days.');
    const during = sast('2027-03-06', '09:00');
    expect(tripChangeRefusal({ ...base, trip, next: { ...trip, start_date: '2027-03-06', end_date: '2027-03-10' }, now: during })?.code).toBe('started');
    expect(tripChangeRefusal({ ...base, trip, next: { ...trip, end_date: '2027-03-10' }, now: during })).toBeNull();
    expect(tripChangeRefusal({ ...base, trip, next: { ...trip, end_date: '2027-03-06', end_time: '08:00' }, now: during })?.code).toBe('past');
  });

  it('a buffer after the new return counts against the next hold', () => {
    const next = { from: sast('2027-03-10', '11:00').getTime(), to: sast('2027-03-11', '11:00').getTime() };
    const longer = { ...trip, end_date: '2027-03-10' };
    expect(tripChangeRefusal({ ...base, otherHolds: [next], trip, next: longer, now: early })).toBeNull();
    expect(tripChangeRefusal({ ...base, otherHolds: [next], bufferMinutes: 120, trip, next: longer, now: early })?.code).toBe('unavailable');
  });
});
