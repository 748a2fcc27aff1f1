import { describe, expect, it } from 'vitest';
import { customCarBody, customCarDefaults, isValidCarUsername, missingRequired, numberOr, quickTestCarBody, testPlate, wholeOr } from './car-creator-form';

describe('the admin car creator form', () => {
  it('starts on document 3\'s custom defaults: Sedan, Automatic, Petrol, 5 seats, 4 doors, 8.0 L/100 km, 2.0 L', () => {
    const form = customCarDefaults(2027);
    expect(form).toMatchObject({ car_type: 'Sedan', transmission: 'Automatic', fuelType: 'Petrol', seats: '5', doors: '4', fuelConsumption: '8.0', engine: '2.0', car_year: '2027' });
    expect(missingRequired(form)).toBe(true);
    expect(missingRequired({ car_make: 'VW', car_model: 'Polo', car_username: '  ' })).toBe(true);
    expect(missingRequired({ car_make: 'VW', car_model: 'Polo', car_username: 'vw-polo' })).toBe(false);
  });

  it('reads numbers leniently: unreadable is 0, seats fall back to 5 and doors to 4', () => {
    expect(numberOr('450')).toBe(450);
    expect(numberOr('7,9')).toBe(7.9);
    expect(numberOr('abc')).toBe(0);
    expect(numberOr('')).toBe(0);
    expect(wholeOr('x', 5)).toBe(5);
    expect(wholeOr('4.5', 4)).toBe(4);
    const body = customCarBody({ ...customCarDefaults(2027), car_make: 'VW', car_model: 'Polo', car_username: 'VW-Polo', seats: 'many', doors: '', car_rent_price: 'free', engine: 'big' }, () => 0);
    expect(body).toMatchObject({ car_username: 'vw-polo', car_rent_price: 0, car_plate_number: 'TEST AAAAAA', specifications: { seats: 5, doors: 4, engine: '0.0L' } });
    expect(body.description).toBe('VW Polo created with the admin car creator.');
  });

  it('checks the car username as the server keeps it', () => {
    expect(isValidCarUsername('toyota-fortuner-test')).toBe(true);
    expect(isValidCarUsername('ab')).toBe(false);
    expect(isValidCarUsername('bad name')).toBe(false);
    expect(isValidCarUsername('double--hyphen')).toBe(false);
  });

  it('makes the Quick Test Car an SUV at R450 a day worth R750 000, with a TEST plate', () => {
    expect(quickTestCarBody(() => 0.99)).toMatchObject({ car_type: 'SUV', car_rent_price: 450, car_value: 750000, car_plate_number: expect.stringMatching(/^TEST [A-Z0-9]{6}$/) });
    expect(testPlate(() => 0)).toBe('TEST AAAAAA');
  });
});
