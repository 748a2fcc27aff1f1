import { describe, expect, it } from 'vitest';
import { EMAIL_HIDDEN, maskContactDetails, PHONE_HIDDEN } from './messages';

describe('maskContactDetails', () => {
  it.each([
    ['082 555 1234', PHONE_HIDDEN],
    ['+27 82 555 1234', PHONE_HIDDEN],
    ['(021) 555-1234', PHONE_HIDDEN],
    ['0825551234', PHONE_HIDDEN],
    ['jo.smith+cars@example.co.za', EMAIL_HIDDEN],
    ['jo (at) example.com', EMAIL_HIDDEN],
  ])('hides %s', (contact, note) => {
    expect(maskContactDetails(`Reach me at ${contact} please`)).toEqual({ text: `Reach me at ${note} please`, masked: true });
  });

  it.each(['Pickup 2030-03-01 at 09:00', 'Flight SA 345, gate 12', 'The car has 45 000 km', 'Booking KT12AB34CD'])('keeps ordinary text: %s', (text) => {
    expect(maskContactDetails(text)).toEqual({ text, masked: false });
  });
});
