// Bench data: the demo data, 200 more hosts and N cars spread over the base cities, a third of
// them held by a booking in the next two months. Deterministic (seeded generator).
import { sql } from 'kysely';
import { addDays, BASE_CITIES, buildCarUsername, CAR_FEATURES, SAFETY_FEATURES, todayIn } from '@karoo/shared';
import type { AppContext } from '../src/context';
import type { NewBooking, NewCar } from '../src/db/schema';
import { seedDemo } from '../src/db/seed';
import { CITY_PLACES, DEMO_MODELS, seededRandom } from '../src/db/seed/demo-cars';

const HOSTS = 200;

export async function seedBenchData(ctx: AppContext, count: number): Promise<void> {
  const { db } = ctx;
  const started = Date.now();
  await seedDemo(ctx, db);
  const { password_hash } = await db.selectFrom('users').select('password_hash').where('username', '=', 'host_thabo').executeTakeFirstOrThrow();

  const hostIds: string[] = [];
  for (let i = 0; i < HOSTS; i += 100) {
    const rows = await db
      .insertInto('users')
      .values(
        Array.from({ length: Math.min(100, HOSTS - i) }, (_, j) => ({
          username: `bench_host_${i + j}`,
          email: `bench_host_${i + j}@example.co.za`,
          password_hash,
          full_name: `Bench Host ${i + j}`,
          role: 'host' as const,
          user_type: 'host',
          verification_status: 'verified' as const,
          host_since: new Date(),
          phone_number: null, address: null, id_number: null, bank_account_number: null, bank_code: null,
          verification_notes: null, verified_at: new Date(), rating: 4.5, terms_accepted_at: null, privacy_accepted_at: null, deleted_at: null,
        })),
      )
      .returning('id')
      .execute();
    hostIds.push(...rows.map((r) => r.id));
  }

  const r = seededRandom(42);
  const today = todayIn();
  const cityNames = BASE_CITIES.map((c) => c.name);
  const images = JSON.stringify(['/uploads/bench/side.svg', '/uploads/bench/front.svg', '/uploads/bench/rear.svg']);
  for (let i = 0; i < count; i += 1000) {
    const batch: NewCar[] = [];
    const bookings: { index: number; booking: Omit<NewBooking, 'car_id' | 'owner_id'> }[] = [];
    for (let j = 0; j < Math.min(1000, count - i); j++) {
      const model = r.pick(DEMO_MODELS);
      const city = r.pick(cityNames);
      const base = BASE_CITIES.find((c) => c.name === city)!;
      const places = CITY_PLACES[city]!;
      const price = Math.max(350, Math.round((model.price * (0.8 + r.next() * 0.4)) / 10) * 10);
      const pickups = [
        { id: `pickup_h${i + j}`, name: "Host's home", address: `${r.pick(places.streets)}, ${city}`, additional_fee: 0, type: 'standard', available_times: ['09:00', '13:00', '17:00'] },
        ...(r.next() < 0.6 ? [{ id: `pickup_m${i + j}`, name: places.mall[0], address: places.mall[1], additional_fee: 50, type: 'mall', available_times: ['10:00', '14:00'] }] : []),
        ...(r.next() < 0.4 ? [{ id: `pickup_d${i + j}`, name: 'Delivery to your address', address: `Anywhere in ${city}`, additional_fee: 300, type: 'premium', available_times: ['08:00', '16:00'] }] : []),
      ];
      batch.push({
        car_username: buildCarUsername(model.make, model.model, `${i + j}`.padStart(6, '0')),
        owner_id: r.pick(hostIds),
        car_make: model.make,
        car_model: model.model,
        car_year: r.int(2016, 2025),
        car_color: r.pick(['White', 'Silver', 'Black', 'Grey', 'Red', 'Blue']),
        car_type: model.type,
        car_plate_number: places.plate(r),
        car_value_cents: model.value * 100,
        car_rent_price_cents: price * 100,
        car_odometer: r.int(5000, 180000),
        description: `A well-kept ${model.make} ${model.model} in ${city}. ${model.transmission}, ${model.fuel.toLowerCase()}, ${model.seats} seats.`,
        images,
        pickup_location: city,
        latitude: base.latitude + (r.next() - 0.5) * 0.2,
        longitude: base.longitude + (r.next() - 0.5) * 0.2,
        status: r.next() < 0.92 ? 'available' : 'offline',
        verification_status: r.next() < 0.95 ? 'verified' : 'pending_verification',
        admin_notes: null,
        specifications: JSON.stringify({ transmission: model.transmission, fuelType: model.fuel, seats: model.seats, doors: model.doors, engine: model.engine, fuelConsumption: model.consumption }),
        features: JSON.stringify(r.some(CAR_FEATURES, 4, 10)),
        safety: JSON.stringify(r.some(SAFETY_FEATURES, 3, 7)),
        rules: JSON.stringify(['No smoking', 'No pets']),
        pickup_options: JSON.stringify(pickups),
        insurance_options: JSON.stringify([
          { id: `insurance_b${i + j}`, name: 'Basic Cover', description: 'Third-party liability', daily_rate: 0, excess_amount: 15000, coverage: ['Third-party liability'], included: true, popular: false, recommended: false },
          { id: `insurance_s${i + j}`, name: 'Standard Cover', description: 'Lower excess', daily_rate: 85, excess_amount: 5000, coverage: ['Collision damage waiver', 'Theft protection'], included: false, popular: true, recommended: false },
        ]),
        registration_storage_key: null, registration_filename: null, registration_mime: null, registration_uploaded_at: null,
        registration_verified: null, registration_verification_notes: null,
        rating: r.next() < 0.7 ? Math.round((3.5 + r.next() * 1.5) * 100) / 100 : null,
        total_reviews: r.int(0, 40),
        deleted_at: null,
      });
      // A third of the cars are held for a few days in the next two months.
      if (r.next() < 0.33) {
        const start = addDays(today, r.int(1, 60));
        const days = r.int(1, 6);
        bookings.push({ index: j, booking: {
          booking_number: `BN${String(i + j).padStart(8, '0')}`,
          renter_id: r.pick(hostIds), start_date: start, end_date: addDays(start, days), start_time: '09:00', end_time: '17:00',
          is_hourly_booking: false, duration_days: days, duration_hours: null, status: r.pick(['pending', 'confirmed', 'active'] as const),
          subtotal_cents: price * 100 * days, service_fee_cents: price * 10 * days, insurance_fee_cents: 0, pickup_fee_cents: 0,
          total_price_cents: price * 110 * days, service_fee_rate: 10, commission_rate: 25,
          car_owner_earnings_cents: price * 75 * days, app_fee_cents: price * 35 * days,
          pickup_option: null, insurance_option: null, special_requirements: null, host_response: null, host_response_date: null,
          payment_provider: null, payment_reference: null, paid_at: null, confirmed_at: null, completed_at: null, cancelled_at: null,
          actual_return_date: null, condition_notes: null, odometer_reading: null, payout_reference: null, payout_at: null,
        } });
      }
    }
    const inserted = await db.insertInto('cars').values(batch).returning(['id', 'owner_id']).execute();
    const held = bookings.map(({ index, booking }) => ({ ...booking, car_id: inserted[index]!.id, owner_id: inserted[index]!.owner_id }));
    if (held.length) await db.insertInto('bookings').values(held).execute();
  }
  await sql`ANALYZE`.execute(db);
  console.log(`seeded ${count} cars (+ the demo data) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
