// Migrations that reshape stored data: run against rows written in the old shape.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Car } from '@karoo/shared';
import { up as optionFeesInCents } from '../src/db/migrations/0008-option-fees-in-cents';
import { carryPlatformSwitch } from '../src/db/migrations/0041-instant-booking-by-car';
import { createSignedInUser, createTestApp, expectOk, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('0008: option fees in cents', () => {
  it('converts rand figures in cars and booking snapshots to cents, once, and the API still answers rand', async () => {
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host.user);
    const booking = await createTestBooking(t.ctx, car, renter.user, { start: '2030-06-01', days: 2 });
    // The shape every row had before the migration.
    const oldPickup = { id: 'pickup_airport', name: 'Airport', address: 'CTIA', additional_fee: 249.5, type: 'airport', available_times: ['07:00'] };
    const oldPlan = { id: 'insurance_std', name: 'Standard', description: 'Lower excess', daily_rate: 85, excess_amount: 5000, coverage: ['Theft'], included: false, popular: true, recommended: false };
    await sql`UPDATE cars SET pickup_options = ${JSON.stringify([oldPickup])}::jsonb, insurance_options = ${JSON.stringify([oldPlan])}::jsonb WHERE id = ${car.id}`.execute(t.db);
    await sql`UPDATE bookings SET pickup_option = ${JSON.stringify({ ...oldPickup, price: 249.5, is_airport: true })}::jsonb, insurance_option = ${JSON.stringify({ ...oldPlan, price: 85 })}::jsonb WHERE id = ${booking.id}`.execute(t.db);

    await optionFeesInCents(t.db as never);
    await optionFeesInCents(t.db as never); // a second run changes nothing

    const row = await t.db.selectFrom('cars').select(['pickup_options', 'insurance_options']).where('id', '=', car.id).executeTakeFirstOrThrow();
    expect(row.pickup_options).toEqual([{ id: 'pickup_airport', name: 'Airport', address: 'CTIA', additional_fee_cents: 24950, type: 'airport', available_times: ['07:00'] }]);
    expect(row.insurance_options[0]).toMatchObject({ daily_rate_cents: 8500, excess_amount_cents: 500000 });
    expect(row.insurance_options[0]).not.toHaveProperty('daily_rate');
    const stored = await t.db.selectFrom('bookings').select(['pickup_option', 'insurance_option']).where('id', '=', booking.id).executeTakeFirstOrThrow();
    expect(stored.pickup_option).toEqual({ id: 'pickup_airport', name: 'Airport', address: 'CTIA', additional_fee_cents: 24950, type: 'airport', available_times: ['07:00'] });

    const shown = expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${car.car_username}` }));
    expect(shown.pickup_options[0]).toMatchObject({ additional_fee: 249.5 });
    expect(shown.insurance_options[0]).toMatchObject({ daily_rate: 85, excess_amount: 5000 });
    const seen = expectOk<{ pickup_option: { price: number; is_airport: boolean }; insurance_option: { price: number } }>(
      await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}`, headers: renter.headers }),
    );
    expect(seen.pickup_option).toMatchObject({ additional_fee: 249.5, price: 249.5, is_airport: true });
    expect(seen.insurance_option).toMatchObject({ daily_rate: 85, price: 85 });
  });
});

describe('0015: mail delivery state', () => {
  it('gives rows written before the outbox worker a status that keeps their meaning', async () => {
    const { up, down } = await import('../src/db/migrations/0015-mail-outbox-worker');
    await t.db.deleteFrom('mail_outbox').execute();
    await down(t.db as never);
    const old = (values: Record<string, unknown>) =>
      sql`INSERT INTO mail_outbox (to_address, subject, text_body, transport, sent_at, error)
        VALUES (${values.to}, 's', 't', ${values.transport}, ${values.sent_at ?? null}, ${values.error ?? null})`.execute(t.db);
    await old({ to: 'sent@example.co.za', transport: 'smtp', sent_at: new Date('2026-01-01T00:00:00Z') });
    await old({ to: 'failed@example.co.za', transport: 'smtp', error: 'Connection refused' });
    await old({ to: 'kept@example.co.za', transport: 'outbox' });
    await old({ to: 'unknown@example.co.za', transport: 'smtp' });
    await up(t.db as never);

    const rows = await t.db.selectFrom('mail_outbox').select(['to_address', 'status', 'attempts', 'last_error', 'message_id']).orderBy('to_address').execute();
    const byAddress = Object.fromEntries(rows.map((r) => [r.to_address.split('@')[0], r]));
    expect(byAddress.sent).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
    expect(byAddress.failed).toMatchObject({ status: 'failed', attempts: 1, last_error: 'Connection refused' });
    expect(byAddress.kept).toMatchObject({ status: 'kept', attempts: 0, last_error: null });
    expect(byAddress.unknown).toMatchObject({ status: 'failed', attempts: 1 });
    expect(byAddress.unknown!.last_error).toBeTruthy();
    for (const row of rows) expect(row.message_id).toMatch(/^<[0-9a-f-]{36}@karoo\.mail>$/);
    // Nothing old is due: the worker sends none of it again on its own.
    expect(await t.outbox.drain()).toBe(0);
  });
});

describe('0014: one charge per booking', () => {
  it('refunds the charges recorded before it that no booking kept (a second payment, a payment after expiry)', async () => {
    const { up, down } = await import('../src/db/migrations/0014-one-charge-per-booking');
    const ledgerMigration = await import('../src/db/migrations/0020-ledger');
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host.user);
    const paid = await createTestBooking(t.ctx, car, renter.user, { start: '2030-07-01', days: 2, status: 'active' });
    const cancelled = await createTestBooking(t.ctx, car, renter.user, { start: '2030-07-10', days: 2, status: 'cancelled' });
    const payable = await createTestBooking(t.ctx, car, renter.user, { start: '2030-07-20', days: 2, status: 'confirmed' });
    await ledgerMigration.down(t.db as never);
    await down(t.db as never);
    // What the old code left: the booking's own charge, a second one on the paid booking (answered
    // 409 and forgotten), one that arrived after the booking was cancelled, and an open checkout.
    const old = (reference: string, bookingId: string, status: string, amount: number) =>
      sql`INSERT INTO payments (reference, booking_id, provider, amount_cents, currency, status)
        VALUES (${reference}, ${bookingId}, 'sandbox', ${amount}, 'ZAR', ${status})`.execute(t.db);
    await old('OLD-KEPT', paid.id, 'success', paid.total_price_cents);
    await t.db.updateTable('bookings').set({ payment_reference: 'OLD-KEPT', payment_provider: 'sandbox' }).where('id', '=', paid.id).execute();
    await old('OLD-SECOND', paid.id, 'success', paid.total_price_cents);
    await old('OLD-LATE', cancelled.id, 'success', cancelled.total_price_cents);
    await old('OLD-OPEN', payable.id, 'initialized', payable.total_price_cents);
    await up(t.db as never);

    const rows = await t.db.selectFrom('payments').selectAll().where('reference', 'like', 'OLD-%').orderBy('reference').execute();
    const byRef = Object.fromEntries(rows.map((r) => [r.reference, r]));
    expect(byRef['OLD-KEPT']).toMatchObject({ status: 'success', refund_status: null });
    expect(byRef['OLD-OPEN']).toMatchObject({ status: 'initialized', refund_status: null });
    expect(byRef['OLD-SECOND']).toMatchObject({ status: 'success', refund_status: 'pending', refund_amount_cents: paid.total_price_cents });
    expect(byRef['OLD-LATE']).toMatchObject({ status: 'success', refund_status: 'pending', refund_amount_cents: cancelled.total_price_cents });
    expect(byRef['OLD-SECOND']!.refund_reason).toBe('This booking was already paid with another payment.');

    // The ledger (0020) takes them as pending refunds, and the retry job asks the provider for them like for any refund.
    await ledgerMigration.up(t.db as never);
    t.clock.advance(60_000);
    // Refunds recorded before the queue have no job: the refund sweep gives each one, and the job asks the provider.
    const { enqueueWaitingRefunds } = await import('../src/modules/payments/refund.job');
    expect(await enqueueWaitingRefunds(t.ctx)).toBe(2);
    expect(await enqueueWaitingRefunds(t.ctx)).toBe(0);
    expect(await t.ctx.jobs.runDue('refunds.attempt')).toBe(2);
    const refunds = await t.db.selectFrom('ledger_entries').select(['charge_reference', 'state', 'amount_cents']).where('kind', '=', 'refund').where('charge_reference', 'like', 'OLD-%').orderBy('charge_reference').execute();
    expect(refunds).toEqual([
      { charge_reference: 'OLD-LATE', state: 'succeeded', amount_cents: cancelled.total_price_cents },
      { charge_reference: 'OLD-SECOND', state: 'succeeded', amount_cents: paid.total_price_cents },
    ]);
  });
});

describe('0018: final payouts and money codes', () => {
  it('gives old refunds a reason code and old expired bookings their cause, from their state and the sentences the old code wrote', async () => {
    const { up, down } = await import('../src/db/migrations/0018-final-payouts-and-money-codes');
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host.user);
    const paid = await createTestBooking(t.ctx, car, renter.user, { start: '2030-08-01', days: 2, status: 'active' });
    const expired = await createTestBooking(t.ctx, car, renter.user, { start: '2030-08-10', days: 2, status: 'cancelled' });
    const cancelled = await createTestBooking(t.ctx, car, renter.user, { start: '2030-08-20', days: 2, status: 'cancelled' });
    const payable = await createTestBooking(t.ctx, car, renter.user, { start: '2030-08-30', days: 2, status: 'confirmed' });
    await down(t.db as never);
    await sql`UPDATE bookings SET host_response = 'Expired: the booking was not paid within 24 hours of being accepted.' WHERE id = ${expired.id}`.execute(t.db);
    await sql`UPDATE bookings SET host_response = 'Plans changed' WHERE id = ${cancelled.id}`.execute(t.db);
    const refund = (reference: string, bookingId: string, amount: number, reason: string | null) =>
      sql`INSERT INTO payments (reference, booking_id, provider, amount_cents, currency, status, refund_status, refund_amount_cents, refund_reason)
        VALUES (${reference}, ${bookingId}, 'sandbox', ${amount}, 'ZAR', 'success', 'pending', ${amount}, ${reason})`.execute(t.db);
    await refund('M18-SECOND', paid.id, paid.total_price_cents, 'This booking was already paid with another payment.');
    await refund('M18-LATE', expired.id, expired.total_price_cents, 'This booking had expired before the payment arrived.');
    await refund('M18-CANCELLED', cancelled.id, cancelled.total_price_cents, 'This booking was cancelled before the payment arrived.');
    await refund('M18-SHORT', payable.id, 100, 'Reworded: we could not use this payment.');
    await refund('M18-RAND', payable.id, payable.total_price_cents, 'The payment was not made in rand (ZAR).');
    await refund('M18-NOTEXT', expired.id, expired.total_price_cents, null);
    await up(t.db as never);

    const codes = await t.db.selectFrom('payments').select(['reference', 'refund_reason_code']).where('reference', 'like', 'M18-%').orderBy('reference').execute();
    expect(Object.fromEntries(codes.map((r) => [r.reference, r.refund_reason_code]))).toEqual({
      'M18-CANCELLED': 'booking_cancelled',
      'M18-LATE': 'booking_expired',
      'M18-NOTEXT': 'booking_expired',
      'M18-RAND': 'wrong_currency',
      'M18-SECOND': 'already_paid',
      // Another amount than the booking's total is a wrong amount, whatever its sentence says.
      'M18-SHORT': 'wrong_amount',
    });
    const causes = await t.db.selectFrom('bookings').select(['id', 'cancel_cause']).where('id', 'in', [expired.id, cancelled.id, paid.id]).execute();
    expect(Object.fromEntries(causes.map((r) => [r.id, r.cancel_cause]))).toEqual({ [expired.id]: 'expired', [cancelled.id]: null, [paid.id]: null });
    // From now on every refund carries its code, and only a completed trip is paid out.
    await expect(refund('M18-NOCODE', payable.id, 100, 'x')).rejects.toThrow(/payments_refund_reason_code_present/);
    await expect(t.db.updateTable('bookings').set({ payout_status: 'paid' }).where('id', '=', paid.id).execute()).rejects.toThrow(/bookings_payout_only_completed/);
  });
});

describe('0041: instant booking by car', () => {
  it('gives every car instant booking where the platform confirmed every request at once, and none where it did not', async () => {
    const host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
    const cars = [await createTestCar(t.ctx, host.user), await createTestCar(t.ctx, host.user)];
    const instantOf = async () => (await t.db.selectFrom('cars').select('instant_booking').where('id', 'in', cars.map((c) => c.id)).execute()).map((r) => r.instant_booking);
    await carryPlatformSwitch(t.db as never); // the default settings: host approval, no instant booking
    expect(await instantOf()).toEqual([false, false]);
    await sql`UPDATE settings SET data = jsonb_set(data, '{business_rules,instant_booking_enabled}', 'true')`.execute(t.db);
    try {
      await carryPlatformSwitch(t.db as never);
      expect(await instantOf()).toEqual([true, true]);
      const shown = expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${cars[0]!.car_username}` }));
      expect(shown.instant_booking).toEqual({ enabled: true, min_trips: 0, min_rating: null, min_licence_years: null });
    } finally {
      await sql`UPDATE settings SET data = jsonb_set(data, '{business_rules,instant_booking_enabled}', 'false')`.execute(t.db);
    }
  });
});
