import { describe, expect, it } from 'vitest';
import { browsePagePath, carPagePath } from './page-addresses';
import { areaOf, isPaidTrip, mayKnowExactPlace } from './places';

describe('areaOf: the suburb and city of an address, never its street', () => {
  it.each([
    ['22 Kloof St, Gardens, Cape Town, 8001', 'Gardens, Cape Town'],
    ['22 Kloof St, Gardens, Cape Town', 'Gardens, Cape Town'],
    ['14 Jan Smuts Ave, Rosebank, Johannesburg, 2196', 'Rosebank, Johannesburg'],
    ['Oxford Rd, Rosebank, Johannesburg, 2196', 'Rosebank, Johannesburg'],
    ['O.R. Tambo Airport Rd, Kempton Park, 1632', 'Kempton Park'],
    ['Cnr N1 & R81, Bendor, 0699', 'Bendor'],
    ['19 Dock Rd, V&A Waterfront, Cape Town, 8001', 'V&A Waterfront, Cape Town'],
    ['Matroosfontein, Cape Town', 'Matroosfontein, Cape Town'],
    ['Anywhere in Cape Town', 'Anywhere in Cape Town'],
    ['Cape Town', 'Cape Town'],
    ['  Durban ', 'Durban'],
  ])('%s is %s', (address, area) => {
    expect(areaOf(address)).toBe(area);
  });

  it('an address that is only a street is the nearest base city, or nothing without a position', () => {
    expect(areaOf('22 Kloof St', { latitude: -33.935, longitude: 18.415 })).toBe('Cape Town');
    expect(areaOf('9 Florida Rd', { latitude: -29.83, longitude: 31.0 })).toBe('Durban');
    expect(areaOf('22 Kloof St')).toBe('');
    expect(areaOf('22 Kloof St', { latitude: null, longitude: null })).toBe('');
  });
});

describe('mayKnowExactPlace: the host, admins and the renter of a paid trip', () => {
  const car = { owner_id: 'host-1' };
  it('answers each viewer', () => {
    expect(mayKnowExactPlace(null, car, false)).toBe(false);
    expect(mayKnowExactPlace({ id: 'someone', username: 'someone', role: 'customer' }, car, false)).toBe(false);
    expect(mayKnowExactPlace({ id: 'host-1', username: 'lerato', role: 'host' }, car, false)).toBe(true);
    expect(mayKnowExactPlace({ id: 'admin-1', username: 'ops', role: 'admin' }, car, false)).toBe(true);
    expect(mayKnowExactPlace({ id: 'renter', username: 'sipho', role: 'customer' }, car, true)).toBe(true);
    // No viewer is never a paid renter.
    expect(mayKnowExactPlace(null, car, true)).toBe(false);
  });

  it('a paid trip is paid and active or completed; pending, unpaid, cancelled and rejected are not', () => {
    expect(isPaidTrip({ status: 'active', payment_status: 'paid' })).toBe(true);
    expect(isPaidTrip({ status: 'completed', payment_status: 'paid' })).toBe(true);
    expect(isPaidTrip({ status: 'confirmed', payment_status: 'unpaid' })).toBe(false);
    expect(isPaidTrip({ status: 'pending', payment_status: 'unpaid' })).toBe(false);
    expect(isPaidTrip({ status: 'cancelled', payment_status: 'paid' })).toBe(false);
    expect(isPaidTrip({ status: 'rejected', payment_status: 'unpaid' })).toBe(false);
  });
});

describe("a public page's address", () => {
  it('names a city page as a form sends it, a type after it, and a car page by its username', () => {
    expect(browsePagePath({ location: 'Cape Town' })).toBe('/cars?location=Cape+Town');
    expect(browsePagePath({ location: 'East London', type: 'SUV' })).toBe('/cars?location=East+London&type=SUV');
    expect(browsePagePath()).toBe('/cars');
    expect(browsePagePath({ location: '', type: '' })).toBe('/cars');
    expect(carPagePath('vw polo/1')).toBe('/cars/vw%20polo%2F1');
  });
});
