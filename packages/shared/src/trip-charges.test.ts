import { describe, expect, it } from 'vitest';
import {
  claimPayment,
  claimSplit,
  DEFAULT_TRIP_CHARGE_SETTINGS as S,
  defaultDepositCents,
  depositLine,
  depositRefusal,
  distanceLine,
  extraKilometres,
  extraKmChargeCents,
  fuelChargeCents,
  fuelKindOf,
  lateHours,
  lateReturnChargeCents,
} from './trip-charges';

describe('defaultDepositCents (by car value)', () => {
  it.each([
    [50_000_00, 3_500_00],
    [150_000_00, 3_500_00], // the band's top is inside it
    [150_000_01, 5_000_00],
    [300_000_00, 5_000_00],
    [300_000_01, 10_000_00],
    [1_200_000_00, 10_000_00],
  ])('a car worth %i cents has a deposit of %i cents', (value, deposit) => {
    expect(defaultDepositCents(value, S)).toBe(deposit);
  });
});

describe('depositRefusal', () => {
  it.each([
    [0, null],
    [1_000_00, null],
    [20_000_00, null],
    [999_99, 'The deposit must be R 0 or between R 1 000 and R 20 000.'],
    [20_000_01, 'The deposit must be R 0 or between R 1 000 and R 20 000.'],
    [-1, 'The deposit must be a whole amount of at least R 0.'],
  ])('%i cents → %s', (cents, refusal) => {
    expect(depositRefusal(cents, S)?.replace(/\u00a0/g, ' ') ?? null).toBe(refusal);
  });
});

describe('fuelChargeCents', () => {
  it.each([
    // in, out, tank, price/l → cents, worked by hand
    [8, 6, 48, 2345, 28_140], // 2/8 × 48 = 12 l × R 23.45 = R 281.40
    [8, 0, 50, 2210, 110_500], // 50 l × R 22.10 = R 1 105.00
    [7, 6, 45, 2345, 13_191], // 1/8 × 45 = 5.625 l × R 23.45 = R 131.906 → R 131.91
    [4, 4, 60, 2345, 0], // same level
    [3, 8, 60, 2345, 0], // returned fuller: nothing, never negative
  ])('%i/8 → %i/8 of %i l at %i c/l = %i c', (checkInEighths, checkOutEighths, tankLitres, pricePerLitreCents, cents) => {
    expect(fuelChargeCents({ checkInEighths, checkOutEighths, tankLitres, pricePerLitreCents })).toBe(cents);
  });
});

describe('extraKmChargeCents', () => {
  it.each([
    // start, end, days, allowance/day, rate → extra km, cents
    [10_000, 10_720, 3, 200, 350, 120, 42_000], // 720 − 600 = 120 km × R 3.50 = R 420
    [10_000, 10_600, 3, 200, 350, 0, 0], // exactly the allowance
    [10_000, 10_450, 2, 250, 400, 0, 0], // under it
    [5_000, 5_301, 1, 300, 275, 1, 275], // one km over
    [10_000, 15_000, 3, null, 350, 0, 0], // unlimited
  ])('%i → %i km over %i days at %s km/day and %i c/km', (startKm, endKm, days, allowance, rate, extra, cents) => {
    const input = { startKm, endKm, days, allowanceKmPerDay: allowance as number | null, ratePerKmCents: rate };
    expect(extraKilometres(input)).toBe(extra);
    expect(extraKmChargeCents(input)).toBe(cents);
  });
});

describe('lateReturnChargeCents', () => {
  const due = new Date('2026-12-10T08:00:00Z');
  const at = (minutes: number) => new Date(due.getTime() + minutes * 60_000);
  it.each([
    // minutes late, grace, daily price, % → hours, cents
    [0, 30, 60_000, 15, 0, 0],
    [30, 30, 60_000, 15, 0, 0], // inside the grace
    [31, 30, 60_000, 15, 1, 9_000], // 1 started hour × 15% of R 600 = R 90
    [90, 30, 60_000, 15, 1, 9_000], // 60 min after grace: still one hour
    [91, 30, 60_000, 15, 2, 18_000],
    [70, 30, 45_000, 15, 1, 6_750], // 15% of R 450 = R 67.50
    [-60, 30, 60_000, 15, 0, 0], // early
    [5 * 60, 0, 33_333, 10, 5, 16_665], // R 33.333 → R 33.33 an hour × 5
  ])('%i min late with %i min grace, R %i/100 a day at %i%% → %i h, %i c', (minutes, graceMinutes, dailyPriceCents, percentOfDay, hours, cents) => {
    expect(lateHours({ dueAt: due, returnedAt: at(minutes), graceMinutes })).toBe(hours);
    expect(lateReturnChargeCents({ dueAt: due, returnedAt: at(minutes), graceMinutes, dailyPriceCents, percentOfDay })).toBe(cents);
  });
});

describe('claimSplit', () => {
  it.each([
    ['fuel', 28_140, 15, 28_140, 0],
    ['tolls', 4_550, 15, 4_550, 0],
    ['traffic_fine', 50_000, 15, 50_000, 0],
    ['extra_km', 42_000, 15, 35_700, 6_300],
    ['cleaning', 33_333, 15, 28_333, 5_000], // 15% of R 333.33 = R 49.9995 → R 50.00
    ['damage', 250_000, 0, 250_000, 0],
  ] as const)('%s of %i c at %i%% → host %i, platform %i', (kind, amount, fee, host, platform) => {
    expect(claimSplit(kind, amount, fee)).toEqual({ hostCents: host, platformCents: platform });
  });
});

describe('claimPayment', () => {
  it.each([
    [70_140, 350_000, 70_140, 0],
    [500_000, 350_000, 350_000, 150_000],
    [10_000, 0, 0, 10_000],
  ])('%i c against %i c held → %i from the deposit, %i from the card', (amount, held, fromDeposit, fromCard) => {
    expect(claimPayment(amount, held)).toEqual({ fromDepositCents: fromDeposit, fromCardCents: fromCard });
  });
});

describe('words', () => {
  it('says the deposit and when it comes back', () => {
    const line = depositLine(350_000, new Date('2026-12-10T08:00:00Z'), new Date('2026-12-01T08:00:00Z'));
    expect(line.replace(/\u00a0/g, ' ')).toBe('R 3 500 deposit, back by Thu 10 Dec if nothing is claimed');
    expect(depositLine(0, new Date())).toBe('No deposit');
  });
  it('says the distance allowance', () => {
    expect(distanceLine(null, 0)).toBe('Unlimited kilometres');
    expect(distanceLine(200, 350).replace(/\u00a0/g, ' ')).toBe('200 km a day included, then R 3,50 a km');
  });
  it('reads the fuel kind from the listing', () => {
    expect(fuelKindOf('Diesel')).toBe('diesel');
    expect(fuelKindOf('Petrol')).toBe('petrol');
    expect(fuelKindOf(undefined)).toBe('petrol');
  });
});
