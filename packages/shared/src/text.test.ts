// The text rule and the maxima of issue 8 (docs/decisions/012-hostile-input.md).
import { describe, expect, it } from 'vitest';
import { createBookingBodySchema } from './bookings';
import { newCarBodySchema, updateRentPriceBodySchema, validateCarLimits } from './cars';
import { MAX_CAR_VALUE, MAX_DAILY_RATE, MAX_INSURANCE_DAILY_RATE, MAX_ODOMETER_KM, MAX_PICKUP_FEE, MAX_RENTAL_DAYS_LIMIT } from './limits';
import { calculatePrice, formatRand } from './pricing';
import { createReviewBodySchema } from './reviews';
import { hasControlCharacters, notAllowedMessage, safeText } from './text';
import { loginBodySchema } from './users';

const CONTROL_CHARACTERS = [...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)), '\u007f'];
const LINE_CHARACTERS = ['\t', '\n', '\r'];
const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('safeText', () => {
  it.each(CONTROL_CHARACTERS.map((c) => [`U+${c.charCodeAt(0).toString(16).padStart(4, '0')}`, c]))('refuses %s inside a single-line text', (_name, c) => {
    const result = safeText('Make').safeParse(`Toy${c}ota`);
    expect(result.success).toBe(false);
    expect(firstMessage(result)).toBe('Make contains characters that are not allowed');
    expect(hasControlCharacters(`a${c}b`)).toBe(true);
  });

  it('keeps tabs and line breaks in multi-line text, and refuses the other control characters', () => {
    const description = safeText('Description', { multiline: true });
    expect(description.parse('Clean car.\r\n\tNo smoking.')).toBe('Clean car.\r\n\tNo smoking.');
    for (const c of CONTROL_CHARACTERS.filter((c) => !LINE_CHARACTERS.includes(c))) {
      expect(firstMessage(description.safeParse(`a${c}b`))).toBe(notAllowedMessage('Description'));
      expect(hasControlCharacters(`a${c}b`, { multiline: true })).toBe(true);
    }
  });

  it('trims first, so a pasted trailing line break is not an error; passwords are kept as typed', () => {
    expect(safeText('Make').parse('  Toyota\n')).toBe('Toyota');
    expect(safeText('Password', { trim: false }).parse(' secret ')).toBe(' secret ');
  });

  it('accepts any other text: accents, emoji, right-to-left', () => {
    for (const text of ['Renée', 'Sí, señor', '🚗 Cruiser', 'سيارة', 'Ñandú — “quoted”']) expect(safeText('Name').parse(text)).toBe(text);
  });

  it('says what is wrong when the value is not text', () => {
    expect(firstMessage(safeText('Make').safeParse(12))).toBe('Make must be text');
  });
});

describe('the schemas use it', () => {
  it('login refuses a NUL in the username', () => {
    expect(firstMessage(loginBodySchema.safeParse({ username: 'a\u0000b', password: 'x' }))).toBe('Username or email contains characters that are not allowed');
  });

  it('multi-line fields keep their line breaks; single-line ones refuse them', () => {
    const booking = createBookingBodySchema.parse({ car_username: 'vw-polo-123456', start_date: '2030-01-01', end_date: '2030-01-02', special_requirements: 'Child seat\nplease' });
    expect(booking.special_requirements).toBe('Child seat\nplease');
    expect(createReviewBodySchema.safeParse({ car_username: 'vw-polo-123456', comment: 'Great\n\nwould rent again' }).success).toBe(true);
    expect(firstMessage(newCarBodySchema.safeParse({ car_make: 'Toy\nota' }))).toBe('Make contains characters that are not allowed');
  });

  it('refuses a NUL anywhere in a car, lists and options included', () => {
    for (const body of [
      { features: ['Bluetooth', 'a\u0000b'] },
      { pickup_options: [{ name: 'Airport', address: 'a\u0000b' }] },
      { insurance_options: [{ name: 'Gold', description: 'Cover', coverage: ['Theft', '\u0000'] }] },
      { specifications: { engine: '1.4\u0000' } },
    ]) {
      expect(firstMessage(newCarBodySchema.safeParse(body))).toMatch(/contains characters that are not allowed$/);
    }
  });
});

describe('maxima', () => {
  it('refuse numbers above them with the limit in rand', () => {
    expect(firstMessage(newCarBodySchema.safeParse({ car_rent_price: 1e9 }))).toBe(`Daily price must be at most ${formatRand(MAX_DAILY_RATE)}`);
    expect(firstMessage(updateRentPriceBodySchema.safeParse({ car_rent_price: 1e9 }))).toBe(`Daily price must be at most ${formatRand(MAX_DAILY_RATE)}`);
    expect(firstMessage(newCarBodySchema.safeParse({ car_value: MAX_CAR_VALUE + 1 }))).toBe(`Vehicle value must be at most ${formatRand(MAX_CAR_VALUE)}`);
    expect(firstMessage(newCarBodySchema.safeParse({ car_odometer: 5e9 }))).toMatch(/^Odometer must be at most 2\s000\s000 km$/);
    expect(firstMessage(newCarBodySchema.safeParse({ pickup_options: [{ name: 'A', address: 'B', additional_fee: 1e308 }] }))).toBe(
      `Additional fee must be at most ${formatRand(MAX_PICKUP_FEE)}`,
    );
    expect(newCarBodySchema.safeParse({ car_rent_price: MAX_DAILY_RATE, car_value: MAX_CAR_VALUE, car_odometer: MAX_ODOMETER_KM }).success).toBe(true);
  });

  it('keep amounts to whole cents: a price that rounds to R0.00 is not above 0', () => {
    expect(firstMessage(updateRentPriceBodySchema.safeParse({ car_rent_price: 0.001 }))).toBe('Price must be greater than 0');
    expect(updateRentPriceBodySchema.parse({ car_rent_price: 455.555 }).car_rent_price).toBe(455.56);
  });

  it('the wizard meets them too (validateCarLimits)', () => {
    const options = { minCarValue: 0, currentYear: 2030 };
    expect(validateCarLimits({ car_rent_price: MAX_DAILY_RATE + 1 }, options)?.title).toBe('Price Too High');
    expect(validateCarLimits({ car_value: MAX_CAR_VALUE + 1 }, options)?.title).toBe('Vehicle Value Too High');
    expect(validateCarLimits({ car_odometer: MAX_ODOMETER_KM + 1 }, options)?.title).toBe('Invalid Odometer');
  });

  it('the dearest booking they allow needs bigint cents, and is exact as a JavaScript number', () => {
    const price = calculatePrice({
      dailyPrice: MAX_DAILY_RATE,
      isHourly: false,
      days: MAX_RENTAL_DAYS_LIMIT,
      hours: 0,
      insuranceDailyRate: MAX_INSURANCE_DAILY_RATE,
      pickupFee: MAX_PICKUP_FEE,
      settings: { platformCommission: 100, platform_fee: 0 },
    });
    // The arithmetic of limits.ts: R80 320 000.
    expect(price.cents.total).toBe(8_032_000_000);
    expect(price.cents.total).toBeGreaterThan(2 ** 31 - 1);
    expect(Number.isSafeInteger(price.cents.total)).toBe(true);
  });
});
