// A host's cancellations on their public profile and on their cars' host card (issue 20: "Cancelled
// 2 of 40 trips"): the paid trips the host cancelled (cancel_cause 'host') over all their paid
// trips, whatever became of them. A no-show the host reported is the renter's doing, a renter's
// cancellation is the renter's, an unpaid booking was never a trip, and another host's record is
// theirs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CancelCauseValue, CarRow } from '../src/db/schema';
import type { Car, CarOwnerProfile } from '@karoo/shared';
import { createUser, createTestApp, expectOk, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2030-03-10T08:00:00Z');
});
afterAll(async () => {
  await t?.close();
});

/** A paid trip of `car` starting on `start`, then cancelled with `cause` when one is given. */
async function paidTrip(car: CarRow, renter: { id: string }, start: string, cause?: CancelCauseValue) {
  const booking = await createTestBooking(t.ctx, car, renter, { start, days: 2, status: cause ? 'cancelled' : 'active', payment_status: 'paid' });
  if (cause) {
    await t.ctx.db.updateTable('bookings').set({ cancel_cause: cause, cancelled_at: t.clock.now() }).where('id', '=', booking.id).execute();
  }
  return booking;
}

const ownerProfile = async (id: string) => expectOk<CarOwnerProfile>(await t.app.inject({ method: 'GET', url: `/api/car/owner/${id}` }));
const carDetails = async (id: string) => expectOk<Car>(await t.app.inject({ method: 'GET', url: `/api/car/getCarDetails/${id}` }));

describe("a host's cancellations (GET /car/owner/{id}, GET /car/getCarDetails/{id})", () => {
  it('counts the paid trips the host cancelled over all their paid trips', async () => {
    const host = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
    const otherHost = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
    const renter = await createUser(t.ctx, { verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host);
    const secondCar = await createTestCar(t.ctx, host);
    const otherCar = await createTestCar(t.ctx, otherHost);

    // Host: four paid trips that went ahead (over two cars), one they cancelled, one no-show they
    // reported and one the renter cancelled: 7 paid trips, 1 cancelled by the host.
    await paidTrip(car, renter, '2030-04-01');
    await paidTrip(car, renter, '2030-04-05');
    await createTestBooking(t.ctx, car, renter, { start: '2030-01-05', days: 2, status: 'completed' });
    await paidTrip(secondCar, renter, '2030-04-01');
    await paidTrip(car, renter, '2030-05-01', 'host');
    await paidTrip(car, renter, '2030-05-01', 'no_show');
    await paidTrip(car, renter, '2030-05-01', 'renter');
    // Never paid: a request the renter withdrew and one waiting for the host. Not trips.
    const withdrawn = await createTestBooking(t.ctx, car, renter, { start: '2030-06-01', days: 2, status: 'cancelled' });
    await t.ctx.db.updateTable('bookings').set({ cancel_cause: 'renter' }).where('id', '=', withdrawn.id).execute();
    await createTestBooking(t.ctx, car, renter, { start: '2030-06-10', days: 2, status: 'pending' });
    // The other host cancelled twice, and had one trip go ahead.
    await paidTrip(otherCar, renter, '2030-04-01', 'host');
    await paidTrip(otherCar, renter, '2030-04-10', 'host');
    await paidTrip(otherCar, renter, '2030-04-20');

    const record = { paid_trips: 7, cancelled_by_host: 1 };
    expect((await ownerProfile(host.username)).cancellations).toEqual(record);
    expect((await ownerProfile(car.car_username)).cancellations).toEqual(record);
    expect((await carDetails(car.car_username)).host.cancellations).toEqual(record);
    expect((await carDetails(secondCar.id)).host.cancellations).toEqual(record);

    const otherRecord = { paid_trips: 3, cancelled_by_host: 2 };
    expect((await ownerProfile(otherHost.username)).cancellations).toEqual(otherRecord);
    expect((await carDetails(otherCar.car_username)).host.cancellations).toEqual(otherRecord);
  });

  it('answers a new host with no trips as 0 of 0', async () => {
    const host = await createUser(t.ctx, { role: 'host', verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host);
    expect((await ownerProfile(host.username)).cancellations).toEqual({ paid_trips: 0, cancelled_by_host: 0 });
    expect((await carDetails(car.car_username)).host.cancellations).toEqual({ paid_trips: 0, cancelled_by_host: 0 });
  });
});
