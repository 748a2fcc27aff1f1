// The admin's bounds and prices for deposits and trip charges, apart from the schemas of
// trip-charges.ts: the platform settings' defaults reach the public pages, which build no schema
// (decision 053; schema-free.test.ts).

/** The admin's bounds and prices for deposits and trip charges (platform settings, `trip_charges`). */
export interface TripChargeSettings {
  /** Deposit by car value: the first band whose `up_to_value` (rand) holds the car's value; above all bands, `deposit_above`. */
  deposit_bands: { up_to_value: number; deposit: number }[];
  deposit_above: number;
  /** The least and most a host may set (rand); R 0 is always allowed: the host says so. */
  deposit_min: number;
  deposit_max: number;
  fuel_price_petrol_cents: number;
  fuel_price_diesel_cents: number;
  /** Hours after check-out in which the host may file charges; the deposit is released when it closes. */
  claim_window_hours: number;
  /** Hours the renter has to accept or dispute a claim; unanswered, it is accepted. */
  answer_hours: number;
  late_grace_minutes: number;
  /** A started late hour costs this percent of the car's daily price. */
  late_hour_percent_of_day: number;
  /** The platform's fee on the charges that are not passed through (percent). */
  claim_fee_percent: number;
}

export const DEFAULT_TRIP_CHARGE_SETTINGS: TripChargeSettings = {
  deposit_bands: [
    { up_to_value: 150_000, deposit: 3_500 },
    { up_to_value: 300_000, deposit: 5_000 },
  ],
  deposit_above: 10_000,
  deposit_min: 1_000,
  deposit_max: 20_000,
  fuel_price_petrol_cents: 2_345,
  fuel_price_diesel_cents: 2_210,
  claim_window_hours: 72,
  answer_hours: 48,
  late_grace_minutes: 30,
  late_hour_percent_of_day: 15,
  claim_fee_percent: 15,
};
