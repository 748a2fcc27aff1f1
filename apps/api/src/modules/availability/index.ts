// The availability module's front door: which bookings hold a car, and when (holds.ts). It sits
// below cars and bookings, which both ask it; it writes nothing.
export {
  countRentedDays,
  currentRenterUsername,
  findHoldingBookings,
  hasActiveRental,
  heldBetween,
  HOLDING_STATUSES,
  rentedNow,
  selectHoldingBookings,
  type HoldingBooking,
} from './holds';
