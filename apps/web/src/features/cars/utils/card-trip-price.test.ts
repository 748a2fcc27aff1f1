// Amounts worked out by hand from the rules in pricing.ts (rental, the long-trip discount, a 10%
// service fee, each rounded to whole rand half up), not by calling the pricing function.
import { DEFAULT_SETTINGS } from '@karoo/shared';
import { describe, expect, it } from 'vitest';
import { cardTripPrice } from './card-trip-price';

const settings = { ...DEFAULT_SETTINGS, platformCommission: 10 };
const trip = (startDate: string, endDate: string) => ({ startDate, endDate });

describe('a browse card’s total for the searched dates', () => {
  it('3 days at R350: R1 050 rental + R105 service fee', () => {
    const price = cardTripPrice({ price_per_day: 350 }, trip('2026-03-10', '2026-03-13'), settings);
    expect(price).toEqual({ total: 1155, days: 3, label: 'R\u00a01\u00a0155 for 3 days' });
  });

  it('a same-day trip is one day, as the server counts it', () => {
    expect(cardTripPrice({ price_per_day: 420 }, trip('2026-03-10', '2026-03-10'), settings)).toMatchObject({ total: 462, days: 1, label: 'R\u00a0462 for 1 day' });
  });

  it('the weekly discount from 7 days, not at 6', () => {
    const discounts = { weekly: 10, monthly: 0 };
    // 6 x R400 = R2 400, no discount, fee R240.
    expect(cardTripPrice({ price_per_day: 400, discounts }, trip('2026-03-10', '2026-03-16'), settings).total).toBe(2640);
    // 7 x R400 = R2 800, 10% off = R280, R2 520 + fee R252.
    expect(cardTripPrice({ price_per_day: 400, discounts }, trip('2026-03-10', '2026-03-17'), settings).total).toBe(2772);
  });

  it('the monthly discount from 28 days, over the weekly one', () => {
    const discounts = { weekly: 10, monthly: 20 };
    // 27 x R300 = R8 100, 10% off = R810, R7 290 + fee R729.
    expect(cardTripPrice({ price_per_day: 300, discounts }, trip('2026-03-01', '2026-03-28'), settings).total).toBe(8019);
    // 28 x R300 = R8 400, 20% off = R1 680, R6 720 + fee R672.
    expect(cardTripPrice({ price_per_day: 300, discounts }, trip('2026-03-01', '2026-03-29'), settings).total).toBe(7392);
  });

  it('a price with cents keeps them; the fee is rounded to whole rand', () => {
    // 3 x R455.50 = R1 366.50; 10% = R136.65, rounded to R137.
    expect(cardTripPrice({ price_per_day: 455.5 }, trip('2026-03-10', '2026-03-13'), settings)).toMatchObject({ total: 1503.5, label: 'R\u00a01\u00a0503,50 for 3 days' });
  });

  it('takes the platform’s own fee', () => {
    expect(cardTripPrice({ price_per_day: 350 }, trip('2026-03-10', '2026-03-13'), { ...settings, platformCommission: 15 }).total).toBe(1208);
  });
});
