import { describe, expect, it } from 'vitest';
import { makeCar } from '@/test/car-fixtures';
import { carBadges, hostCancellationsText, markerColour, specChips } from './car-display';

describe('card badges state facts, never the price (decision 056)', () => {
  const included = { included: true };
  const optional = { included: false };
  it.each([
    [false, [], []],
    [false, [optional], []],
    [false, [optional, included], ['Insured']],
    [true, [], ['Instant']],
    [true, [included], ['Instant', 'Insured']],
  ] as const)('offers instant booking %s, plans %j: %j', (instant, insurance_options, badges) => {
    expect(carBadges({ instant, insurance_options })).toEqual(badges);
  });

  it('a R 500 car with cover included reads Insured, a R 1 500 one without reads nothing', () => {
    expect(carBadges({ instant: false, ...makeCar({ car_rent_price: 500, insurance_options: [{ ...makeCar().insurance_options[0]!, included: true }] }) })).toEqual(['Insured']);
    expect(carBadges({ instant: false, ...makeCar({ car_rent_price: 1500, insurance_options: [] }) })).toEqual([]);
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
