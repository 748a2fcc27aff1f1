import { describe, expect, it } from 'vitest';
import { instantBookingSummary, instantBookingUnmet, licenceYearsHeld, offersInstantBooking, type InstantBooking, type InstantRenterFacts } from './instant-booking';
import { updateInstantBookingBodySchema } from './instant-booking-schema';

const ON: InstantBooking = { enabled: true, min_trips: 3, min_rating: 4.5, min_licence_years: 2 };
const GOOD: InstantRenterFacts = { verified: true, completed_trips: 3, rating: 4.5, licence_issued_on: '2028-06-15' };
const TODAY = '2030-06-15';
const kinds = (rules: InstantBooking, renter: InstantRenterFacts, allowed = true) => instantBookingUnmet(rules, allowed, renter, TODAY).map((u) => u.requirement);

describe('licenceYearsHeld: whole years, to the day', () => {
  it.each([
    ['2028-06-15', '2030-06-15', 2],
    ['2028-06-16', '2030-06-15', 1],
    ['2028-07-01', '2030-06-15', 1],
    ['2028-05-31', '2030-06-15', 2],
    ['2030-06-15', '2030-06-15', 0],
    ['2031-01-01', '2030-06-15', 0],
    // A licence issued on 29 February is a year older on 1 March of a common year, not on 28 February.
    ['2028-02-29', '2029-02-28', 0],
    ['2028-02-29', '2029-03-01', 1],
  ])('issued %s, on %s: %i', (issued, today, years) => {
    expect(licenceYearsHeld(issued, today)).toBe(years);
  });
});

describe('instantBookingUnmet: each requirement on both sides of its bound', () => {
  it('meets every requirement exactly at its bound', () => {
    expect(kinds(ON, GOOD)).toEqual([]);
  });
  it('one trip short, a tenth of a star short, a day short of the years', () => {
    expect(kinds(ON, { ...GOOD, completed_trips: 2 })).toEqual(['trips']);
    expect(kinds(ON, { ...GOOD, rating: 4.4 })).toEqual(['rating']);
    expect(kinds(ON, { ...GOOD, licence_issued_on: '2028-06-16' })).toEqual(['licence']);
  });
  it('no rating yet fails a rating requirement; no licence date fails a licence one; neither is asked when not set', () => {
    expect(kinds(ON, { ...GOOD, rating: null, licence_issued_on: null })).toEqual(['rating', 'licence']);
    expect(kinds({ enabled: true, min_trips: 0, min_rating: null, min_licence_years: null }, { verified: true, completed_trips: 0, rating: null, licence_issued_on: null })).toEqual([]);
  });
  it('an unverified renter never books instantly', () => {
    expect(kinds({ enabled: true, min_trips: 0, min_rating: null, min_licence_years: null }, { ...GOOD, verified: false })).toEqual(['verified']);
  });
  it("the platform's switch is above the car's choice, and the car's choice above the renter", () => {
    expect(kinds(ON, GOOD, false)).toEqual(['platform']);
    expect(kinds({ ...ON, enabled: false }, GOOD)).toEqual(['car']);
    expect(offersInstantBooking(ON, true)).toBe(true);
    expect(offersInstantBooking(ON, false)).toBe(false);
    expect(offersInstantBooking({ enabled: false }, true)).toBe(false);
  });
  it('says what is missing in words', () => {
    expect(instantBookingUnmet(ON, true, { verified: true, completed_trips: 1, rating: 4, licence_issued_on: '2029-06-15' }, TODAY).map((u) => u.message)).toEqual([
      'Needs 3 completed trips on Karoo; you have 1.',
      'Needs a rating from hosts of 4.5 or more; yours is 4.',
      'Needs a licence held 2 years or more; yours, 1 year.',
    ]);
  });
});

describe('instantBookingSummary', () => {
  it.each([
    [{ enabled: true, min_trips: 0, min_rating: null, min_licence_years: null }, 'Verified renters.'],
    [{ enabled: true, min_trips: 1, min_rating: null, min_licence_years: null }, 'Verified renters with at least 1 completed trip.'],
    [ON, 'Verified renters with at least 3 completed trips, a rating of 4.5 or more and a licence held 2 years or more.'],
    [{ enabled: true, min_trips: 0, min_rating: 4, min_licence_years: 1 }, 'Verified renters with a rating of 4 or more and a licence held 1 year or more.'],
  ])('%j reads %s', (rules, text) => {
    expect(instantBookingSummary(rules)).toBe(text);
  });
});

describe('updateInstantBookingBodySchema (the form and the server)', () => {
  it('takes the form as typed: empty is no requirement', () => {
    expect(updateInstantBookingBodySchema.parse({ enabled: true, min_trips: '3', min_rating: '4.5', min_licence_years: '' })).toEqual({ enabled: true, min_trips: 3, min_rating: 4.5, min_licence_years: null });
  });
  it.each([
    [{ min_trips: -1 }, 'Completed trips must be at least 0'],
    [{ min_trips: 2.5 }, 'Completed trips must be a whole number'],
    [{ min_rating: 0.5 }, 'Rating must be at least 1'],
    [{ min_rating: 4.25 }, 'Rating takes one decimal (4.5)'],
    [{ min_licence_years: 21 }, 'Licence years must be at most 20'],
  ])('%j is refused: %s', (change, message) => {
    const result = updateInstantBookingBodySchema.safeParse({ enabled: true, min_trips: 0, min_rating: '', min_licence_years: '', ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toContain(message);
  });
});
