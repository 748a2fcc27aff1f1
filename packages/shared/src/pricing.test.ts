// The booking price of document 2 section 9 and decisions.md section 5: worked examples, and
// properties that must hold for any price, length, options and rates.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calculatePrice, formatRand, hourlyRateOf, serviceFeeLabel, type PriceInput } from './pricing';
import { DEFAULT_SETTINGS } from './platform-settings';

const settings = { platformCommission: 10, platform_fee: 25 };

describe('calculatePrice: worked examples', () => {
  it('prices a daily booking: subtotal, service fee, insurance per day, pickup fee, earnings and app fee', () => {
    const p = calculatePrice({ dailyPrice: 455, isHourly: false, days: 3, hours: 0, pickupFee: 50, insuranceDailyRate: 85, settings });
    expect(p).toMatchObject({
      subtotal: 1365,
      serviceFee: 137, // 136.5 rounds half up
      insuranceFee: 255,
      pickupFee: 50,
      total: 1807,
      carOwnerEarnings: 1061, // (1365 + 50) x 0.75 = 1061.25
      appFee: 746,
      serviceFeeRate: 10,
      commissionRate: 25,
      serviceFeeLabel: 'Service fee (10%)',
    });
    expect(p.cents.total).toBe(180700);
  });

  it('prices an hourly booking at a tenth of the daily price, rounded, and insurance by the hour', () => {
    const p = calculatePrice({ dailyPrice: 455, isHourly: true, days: 1, hours: 3, insuranceDailyRate: 85, settings });
    expect(p.hourlyRate).toBe(46);
    expect(p.subtotal).toBe(138);
    expect(p.serviceFee).toBe(14);
    expect(p.insuranceFee).toBe(11); // 85 / 24 x 3 = 10.625
    expect(p.total).toBe(163);
    expect(hourlyRateOf(455)).toBe(46);
  });

  it('keeps cents where nothing is rounded, and shows fractional rates', () => {
    const p = calculatePrice({ dailyPrice: 455.5, isHourly: false, days: 2, hours: 0, settings: { platformCommission: 12.5, platform_fee: 0 } });
    expect(p.subtotal).toBe(911);
    expect(p.serviceFee).toBe(114); // 113.875
    expect(p.carOwnerEarnings).toBe(911);
    expect(p.serviceFeeLabel).toBe('Service fee (12.5%)');
    expect(serviceFeeLabel(DEFAULT_SETTINGS.platformCommission)).toBe('Service fee (10%)');
  });

  it('formats rand for en-ZA', () => {
    expect(formatRand(1250)).toMatch(/^R\s1\s250$/);
    expect(formatRand(455.5)).toMatch(/^R\s455,50$/);
    expect(formatRand(undefined)).toMatch(/^R\s0$/);
    expect(formatRand(-20)).toMatch(/^-R\s20$/);
  });
});

const money = fc.integer({ min: 0, max: 5_000_000 }).map((cents) => cents / 100);
const rate = fc.integer({ min: 0, max: 10_000 }).map((bp) => bp / 100);
const input = fc.record({
  dailyPrice: fc.integer({ min: 1, max: 500_000 }).map((cents) => cents / 100 + 1),
  isHourly: fc.boolean(),
  days: fc.integer({ min: 1, max: 365 }),
  hours: fc.integer({ min: 1, max: 24 }),
  pickupFee: money,
  insuranceDailyRate: money,
  settings: fc.record({ platformCommission: rate, platform_fee: rate }),
});

describe('calculatePrice: properties', () => {
  it('the parts add up to the total, in whole cents', () => {
    fc.assert(
      fc.property(input, (i: PriceInput) => {
        const { cents } = calculatePrice(i);
        expect(cents.subtotal + cents.serviceFee + cents.insuranceFee + cents.pickupFee).toBe(cents.total);
        for (const value of Object.values(cents)) expect(Number.isInteger(value)).toBe(true);
      }),
    );
  });

  it('host earnings and the app fee make up the total, and neither is negative', () => {
    fc.assert(
      fc.property(input, (i: PriceInput) => {
        const { cents } = calculatePrice(i);
        expect(cents.carOwnerEarnings + cents.appFee).toBe(cents.total);
        expect(cents.carOwnerEarnings).toBeGreaterThanOrEqual(0);
        expect(cents.appFee).toBeGreaterThanOrEqual(0);
        expect(cents.carOwnerEarnings).toBeLessThanOrEqual(cents.subtotal + cents.pickupFee);
      }),
    );
  });

  it('rounded figures are whole rand', () => {
    fc.assert(
      fc.property(input, (i: PriceInput) => {
        const { cents } = calculatePrice(i);
        expect(cents.serviceFee % 100).toBe(0);
        if (cents.carOwnerEarnings !== cents.subtotal + cents.pickupFee) expect(cents.carOwnerEarnings % 100).toBe(0);
        expect(cents.hourlyRate % 100).toBe(0);
        if (i.isHourly) expect(cents.insuranceFee % 100).toBe(0);
      }),
    );
  });

  it('never gets cheaper for a longer booking', () => {
    fc.assert(
      fc.property(input, fc.integer({ min: 1, max: 30 }), (i: PriceInput, extra) => {
        const shorter = calculatePrice({ ...i, isHourly: false });
        const longer = calculatePrice({ ...i, isHourly: false, days: i.days + extra });
        expect(longer.cents.total).toBeGreaterThanOrEqual(shorter.cents.total);
        expect(longer.cents.carOwnerEarnings).toBeGreaterThanOrEqual(shorter.cents.carOwnerEarnings);
        const hours = Math.min(24, i.hours + extra);
        expect(calculatePrice({ ...i, isHourly: true, hours }).cents.total).toBeGreaterThanOrEqual(calculatePrice({ ...i, isHourly: true }).cents.total);
      }),
    );
  });

  it('the rand figures are the cents divided by 100', () => {
    fc.assert(
      fc.property(input, (i: PriceInput) => {
        const p = calculatePrice(i);
        expect(p.total).toBe(p.cents.total / 100);
        expect(p.appFee).toBe(p.cents.appFee / 100);
      }),
    );
  });
});
