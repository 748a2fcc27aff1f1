// The availability module's front door: which bookings and blocked periods hold a car, and when
// (holds.ts). It sits below cars and bookings, which both ask it; it writes nothing.
export {
  countRentedDays,
  currentRenterUsername,
  findCarHolds,
  hasActiveRental,
  heldBetween,
  HOLDING_STATUSES,
  rentedNow,
  selectHoldingBookings,
  type CarHold,
  type HoldingBooking,
} from './holds';
