import { describe, expect, it } from 'vitest';
import { makeCar } from '@/test/car-fixtures';
import { carBadges, hostCancellationsText, markerColour, specChips } from './car-display';

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

describe("the host's cancellations (issue 20, Turo's wording)", () => {
  it('counts the trips the host cancelled of their paid trips', () => {
    expect(hostCancellationsText({ paid_trips: 40, cancelled_by_host: 2 })).toBe('Cancelled 2 of 40 trips');
    expect(hostCancellationsText({ paid_trips: 12, cancelled_by_host: 0 })).toBe('Cancelled 0 of 12 trips');
    expect(hostCancellationsText({ paid_trips: 1, cancelled_by_host: 1 })).toBe('Cancelled 1 of 1 trip');
  });

  it('says nothing of a host without paid trips, or when the answer has no record', () => {
    expect(hostCancellationsText({ paid_trips: 0, cancelled_by_host: 0 })).toBeNull();
    expect(hostCancellationsText(undefined)).toBeNull();
  });
});
