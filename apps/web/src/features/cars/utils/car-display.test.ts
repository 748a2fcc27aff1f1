import { describe, expect, it } from 'vitest';
import { makeCar } from '@/test/car-fixtures';
import { carBadges, markerColour, specChips } from './car-display';

describe('card badges (document 2: Premium > R1000, Instant <= R800, Insured > R600)', () => {
  it.each([
    [350, ['Instant']],
    [600, ['Instant']],
    [601, ['Instant', 'Insured']],
    [800, ['Instant', 'Insured']],
    [801, ['Insured']],
    [1000, ['Insured']],
    [1001, ['Premium', 'Insured']],
  ])('R%i shows %j', (price, badges) => {
    expect(carBadges(price)).toEqual(badges);
  });
});

describe('map marker colour bands', () => {
  it.each([
    [350, 'green'],
    [500, 'green'],
    [501, 'yellow'],
    [1000, 'yellow'],
    [1001, 'red'],
  ])('R%i is %s', (price, colour) => {
    expect(markerColour(price)).toBe(colour);
  });
});

describe('chips', () => {
  it('gives at most 3 specification chips: transmission, fuel, seats', () => {
    expect(specChips(makeCar())).toEqual(['Automatic', 'Petrol', '5 seats']);
    expect(specChips(makeCar({ specifications: { transmission: 'manual', fuelType: 'Diesel', seats: 7, doors: 4, engine: '', fuelConsumption: '' } }))).toEqual([
      'Manual',
      'Diesel',
      '7 seats',
    ]);
  });
});
