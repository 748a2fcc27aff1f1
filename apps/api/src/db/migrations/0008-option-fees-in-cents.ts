// Pickup fees and insurance rates and excesses are stored in integer cents like every other amount
// (they were rand numbers inside the JSON of cars.pickup_options / insurance_options and of each
// booking's chosen option). The API still speaks rand: cars.mapper converts at the edge. The
// booking snapshots also lose the `price` and `is_airport` copies, which the mapper derives.
import { sql, type Kysely } from 'kysely';

type Json = Record<string, unknown>;
const cents = (value: unknown) => Math.round(Number(value ?? 0) * 100);

function pickupInCents(o: Json): Json {
  if ('additional_fee_cents' in o) return o;
  const { additional_fee, price: _price, is_airport: _isAirport, ...rest } = o;
  return { ...rest, additional_fee_cents: cents(additional_fee) };
}

function insuranceInCents(o: Json): Json {
  if ('daily_rate_cents' in o) return o;
  const { daily_rate, excess_amount, price: _price, ...rest } = o;
  return { ...rest, daily_rate_cents: cents(daily_rate), excess_amount_cents: cents(excess_amount) };
}

const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : typeof value === 'string' ? (JSON.parse(value) as Json[]) : []);
const asObject = (value: unknown): Json | null => (value == null ? null : typeof value === 'string' ? (JSON.parse(value) as Json) : (value as Json));

export async function up(db: Kysely<unknown>): Promise<void> {
  const cars = await sql<{ id: string; pickup_options: unknown; insurance_options: unknown }>`SELECT id, pickup_options, insurance_options FROM cars`.execute(db);
  for (const car of cars.rows) {
    const pickups = JSON.stringify(asArray(car.pickup_options).map(pickupInCents));
    const plans = JSON.stringify(asArray(car.insurance_options).map(insuranceInCents));
    await sql`UPDATE cars SET pickup_options = ${pickups}::jsonb, insurance_options = ${plans}::jsonb WHERE id = ${car.id}`.execute(db);
  }
  const bookings = await sql<{ id: string; pickup_option: unknown; insurance_option: unknown }>`
    SELECT id, pickup_option, insurance_option FROM bookings WHERE pickup_option IS NOT NULL OR insurance_option IS NOT NULL
  `.execute(db);
  for (const booking of bookings.rows) {
    const pickup = asObject(booking.pickup_option);
    const plan = asObject(booking.insurance_option);
    await sql`
      UPDATE bookings SET
        pickup_option = ${pickup ? JSON.stringify(pickupInCents(pickup)) : null}::jsonb,
        insurance_option = ${plan ? JSON.stringify(insuranceInCents(plan)) : null}::jsonb
      WHERE id = ${booking.id}
    `.execute(db);
  }
}

export async function down(): Promise<void> {
  // One way: the rand figures are recomputed from cents by the API.
}
