import { describe, expect, it } from 'vitest';
import { formatCardNumber, formatExpiry, validateCard } from './card';

const now = new Date('2026-11-22T10:00:00Z');

describe('card helpers', () => {
  it('spaces the card number in fours and formats the expiry as MM/YY', () => {
    expect(formatCardNumber('4084084084084081')).toBe('4084 0840 8408 4081');
    expect(formatCardNumber('4084-0840 84x')).toBe('4084 0840 84');
    expect(formatExpiry('1230')).toBe('12/30');
    expect(formatExpiry('1')).toBe('1');
  });

  it('accepts a valid card', () => {
    expect(validateCard({ cardNumber: '4084 0840 8408 4081', expiry: '12/30', cvv: '123' }, now)).toEqual({});
  });

  it('explains each problem', () => {
    expect(validateCard({ cardNumber: '', expiry: '', cvv: '' }, now)).toEqual({
      cardNumber: 'Card number is required',
      expiry: 'Expiry is required',
      cvv: 'CVV must be 3 or 4 digits',
    });
    expect(validateCard({ cardNumber: '4084', expiry: '13/30', cvv: '12' }, now)).toEqual({
      cardNumber: 'Card number must be 12 to 19 digits',
      expiry: 'Expiry must be MM/YY',
      cvv: 'CVV must be 3 or 4 digits',
    });
    expect(validateCard({ cardNumber: '4084084084084081', expiry: '10/26', cvv: '123' }, now).expiry).toBe('This card has expired');
    expect(validateCard({ cardNumber: '4084084084084081', expiry: '11/26', cvv: '123' }, now).expiry).toBeUndefined();
  });
});
