// Rows to the API's booking shape (document 3 section 3): rand amounts from the stored cents,
// the aliases the seed's screens read (pickup_date, total_cost, user_username, ...), the booking's
// refunds and its money as ledger sums.
import { areaOf, bookingExpiresAt, isPaidTrip, mayKnowExactPlace, type Booking, type RoleBearer, type BookingRefund, type InsuranceOption, type PickupOption } from '@karoo/shared';
import { toInsuranceOption, toPickupOption, toSpecifications } from '../cars';
import type { BookingMoneyView, BookingRefundRecord } from './booking-answers';
import type { BookingRecord } from './bookings.repository';

const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());
const rand = (cents: number) => cents / 100;

/**
 * A booking as the API answers it. `refunds` and `money` are what the viewer may see of its ledger
 * rows (payments.service findVisibleLedger): booking-answers.ts fetches them for a whole list at once.
 */
/**
 * Whether the viewer of a booking may know the car's exact place and plate (decision 055): its host
 * and administrators, and its renter once this booking is a paid trip; before payment the renter
 * reads the area, as every stranger does.
 */
export function bookingShowsExactPlace(viewer: ({ id: string } & RoleBearer) | null, row: Pick<BookingRecord, 'owner_id' | 'renter_id' | 'status' | 'payment_status'>): boolean {
  return mayKnowExactPlace(viewer, row, !!viewer && viewer.id === row.renter_id && isPaidTrip(row));
}

export function toBooking(
  row: BookingRecord,
  refunds: readonly BookingRefundRecord[],
  money: BookingMoneyView | null,
  viewer: ({ id: string } & RoleBearer) | null,
): Booking {
  const carName = `${row.car_make} ${row.car_model}`;
  const exact = bookingShowsExactPlace(viewer, row);
  const carArea = areaOf(row.car_pickup_location);
  const pickup = row.pickup_option ? pickupView(toPickupOption(row.pickup_option)) : null;
  const specifications = toSpecifications(row.car_specifications);
  const total = rand(row.total_price_cents);
  return {
    id: row.id,
    booking_id: row.booking_number,
    status: row.status,
    car_id: row.car_id,
    car_username: row.car_username,
    car_owner: row.owner_username,
    car_name: carName,
    car_details: { car_name: carName },
    car: {
      id: row.car_id,
      car_username: row.car_username,
      car_make: row.car_make,
      car_model: row.car_model,
      car_year: row.car_year,
      car_color: row.car_color,
      car_type: row.car_type,
      car_plate_number: exact ? row.car_plate_number : null,
      image: row.car_images?.[0] ?? null,
      pickup_location: exact ? row.car_pickup_location : carArea,
      exact_place: exact,
      specifications: { transmission: specifications.transmission, fuelType: specifications.fuelType },
    },
    user_id: row.renter_id,
    user_username: row.renter_username,
    username: row.renter_username,
    renter: { username: row.renter_username, full_name: row.renter_full_name },
    host: { username: row.owner_username, full_name: row.owner_full_name },
    start_date: row.start_date,
    end_date: row.end_date,
    pickup_date: row.start_date,
    return_date: row.end_date,
    start_time: row.start_time,
    end_time: row.end_time,
    is_hourly_booking: row.is_hourly_booking,
    booking_type: row.is_hourly_booking ? 'hourly' : 'daily',
    duration_days: row.duration_days,
    duration_hours: row.duration_hours,
    subtotal: rand(row.subtotal_cents),
    discount: rand(row.discount_cents),
    discount_rate: Number(row.discount_rate),
    service_fee: rand(row.service_fee_cents),
    insurance_fee: rand(row.insurance_fee_cents),
    pickup_fee: rand(row.pickup_fee_cents),
    total_price: total,
    total_cost: total,
    total_amount: total,
    service_fee_rate: Number(row.service_fee_rate),
    commission_rate: Number(row.commission_rate),
    car_owner_earnings: rand(row.car_owner_earnings_cents),
    app_fee: rand(row.app_fee_cents),
    pickup_option: pickup && !exact ? { ...pickup, address: areaOf(pickup.address) || carArea } : pickup,
    insurance_option: row.insurance_option ? insuranceView(toInsuranceOption(row.insurance_option)) : null,
    special_requirements: row.special_requirements,
    host_response: row.host_response,
    host_response_date: iso(row.host_response_date),
    payment_status: row.payment_status,
    payment_reference: row.payment_reference,
    paid_at: iso(row.paid_at),
    confirmed_at: iso(row.confirmed_at),
    completed_at: iso(row.completed_at),
    cancelled_at: iso(row.cancelled_at),
    actual_return_date: iso(row.actual_return_date),
    condition_notes: row.condition_notes,
    odometer_reading: row.odometer_reading,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    expires_at: iso(bookingExpiresAt(row)),
    refunds: refunds.map(toRefund),
    cancel_cause: row.cancel_cause ?? null,
    deposit: rand(row.deposit_cents),
    distance_allowance_km: row.distance_allowance_km,
    extra_km_rate: rand(row.extra_km_rate_cents),
    money: toMoney(money),
  };
}

const randOrNull = (cents: number | null | undefined) => (cents == null ? null : rand(cents));

/** The booking's ledger sums for this viewer, in rand (all null before any money moved). */
function toMoney(m: BookingMoneyView | null): Booking['money'] {
  return {
    charged: randOrNull(m?.charged_cents),
    refunded: randOrNull(m?.refunded_cents),
    refund_pending: randOrNull(m?.refund_pending_cents),
    cancellation_fee: randOrNull(m?.cancellation_fee_cents),
    host_share: randOrNull(m?.host_share_cents),
    host_penalty: randOrNull(m?.host_penalty_cents),
  };
}

function toRefund(r: BookingRefundRecord): BookingRefund {
  return {
    id: r.id,
    reference: r.reference,
    amount: rand(r.amount_cents),
    status: r.status,
    reason: r.reason,
    of: r.of,
    requested_at: iso(r.requested_at)!,
    refunded_at: iso(r.refunded_at),
    ...(r.last_error ? { last_error: r.last_error } : {}),
  };
}

/** The chosen pickup option with the aliases the seed's booking card reads (price, is_airport). */
function pickupView(o: PickupOption) {
  return { ...o, price: o.additional_fee, is_airport: o.type === 'airport' };
}

/** The chosen insurance plan with the seed's per-day `price`. */
function insuranceView(o: InsuranceOption) {
  return { id: o.id, name: o.name, description: o.description, daily_rate: o.daily_rate, price: o.daily_rate, excess_amount: o.excess_amount, coverage: o.coverage };
}
