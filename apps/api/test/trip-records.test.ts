// Check-in and check-out records and disputes (issue 21; decision 042), through the routes on the
// real database: who may write and read each record, photo and dispute (another user's booking is
// 404), the windows in which records are taken, the four sides required, the comparison the host's
// Process Return shows, photos private and stripped of their metadata, records that the database
// refuses to change or delete, and an admin's resolution (and reading) in the audit log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { BookingTripRecords, Dispute, TripComparison, TripRecord } from '@karoo/shared';
import type { BookingRow } from '../src/db/schema';
import { createSignedInUser, createTestApp, expectError, expectOk, multipart, phonePhoto, rememberedSession, type MultipartPart, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;
let stranger: Signed;
let booking: BookingRow;
let photo: Buffer;
let gpsPhoto: Buffer;

/** The trip: 3 to 5 March 2030, 09:00 to 17:00 Johannesburg (07:00 to 15:00 UTC). */
const BEFORE_WINDOW = '2030-03-01T08:00:00.000Z';
const AT_PICKUP = '2030-03-03T06:30:00.000Z';
const AT_RETURN = '2030-03-05T14:00:00.000Z';

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(BEFORE_WINDOW);
  // Signed in with "remember me" in mid-February: the clock moves weeks ahead.
  t.clock.set('2030-02-15T08:00:00.000Z');
  admin = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' }));
  host = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' }));
  renter = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
  stranger = await rememberedSession(t.app, await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' }));
  t.clock.set(BEFORE_WINDOW);
  const car = await createTestCar(t.ctx, host.user);
  booking = await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-03', end: '2030-03-05', status: 'active' });
  photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#c0392b' } }).jpeg().toBuffer();
  gpsPhoto = await phonePhoto(640, 480);
});
afterAll(() => t.close());

function recordForm(stage: string, odometer: number, fuel: number, slots = ['front', 'back', 'left', 'right'], extra: MultipartPart[] = []) {
  return multipart([
    { name: 'stage', value: stage },
    { name: 'odometer_km', value: String(odometer) },
    { name: 'fuel_eighths', value: String(fuel) },
    { name: 'note', value: `${stage} by the book` },
    ...slots.map((slot) => ({ name: `photo_${slot}`, filename: `${slot}.jpg`, data: slot === 'front' ? gpsPhoto : photo, contentType: 'image/jpeg' })),
    ...extra,
  ]);
}

const record = (who: Signed, body: ReturnType<typeof multipart>, id = booking.id) =>
  t.app.inject({ method: 'POST', url: `/api/booking/${id}/trip-records`, headers: { ...who.headers, ...body.headers }, payload: body.payload });
const records = (who: Signed, id = booking.id) => t.app.inject({ method: 'GET', url: `/api/booking/${id}/trip-records`, headers: who.headers });

function disputeForm(description: string, photos = 1) {
  return multipart([
    { name: 'kind', value: 'damage' },
    { name: 'description', value: description },
    ...Array.from({ length: photos }, (_, k) => ({ name: 'photo', filename: `scratch-${k}.jpg`, data: photo, contentType: 'image/jpeg' })),
  ]);
}
const openDispute = (who: Signed, body: ReturnType<typeof multipart>, id = booking.id) =>
  t.app.inject({ method: 'POST', url: `/api/booking/${id}/disputes`, headers: { ...who.headers, ...body.headers }, payload: body.payload });

async function noticesOf(userId: string, type: string) {
  return t.ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).where('type', '=', type).execute();
}

async function auditRows(action: string) {
  return t.ctx.db.selectFrom('audit_log').selectAll().where('action', '=', action).execute();
}

describe('check-in', () => {
  it('opens 24 hours before the pickup', async () => {
    t.clock.set(BEFORE_WINDOW);
    expectError(await record(host, recordForm('check_in', 42_000, 8)), 409, 'Check-in opens 24 hours before the pickup.');
  });

  it('needs a photo of each of the four sides', async () => {
    t.clock.set(AT_PICKUP);
    const res = expectError(await record(host, recordForm('check_in', 42_000, 8, ['front', 'back'])), 400, 'Add a photo of each side of the car: left side, right side missing.');
    expect(res.errors).toMatchObject({ photo_left: 'Photo required', photo_right: 'Photo required' });
  });

  it('is refused to another user (404) and to an admin who is not a party (403)', async () => {
    t.clock.set(AT_PICKUP);
    expectError(await record(stranger, recordForm('check_in', 42_000, 8)), 404);
    expectError(await record(admin, recordForm('check_in', 42_000, 8)), 403);
  });

  it('is recorded by the host, then the renter, each once, with its time and author', async () => {
    t.clock.set(AT_PICKUP);
    const extra = [{ name: 'photo_extra', filename: 'dash.jpg', data: photo, contentType: 'image/jpeg' }];
    const byHost = expectOk<TripRecord>(await record(host, recordForm('check_in', 42_000, 8, undefined, extra)), 201);
    expect(byHost).toMatchObject({ stage: 'check_in', party: 'host', odometer_km: 42_000, fuel_eighths: 8, author: { username: host.user.username }, created_at: AT_PICKUP });
    expect(byHost.photos.map((p) => p.slot)).toEqual(['front', 'back', 'left', 'right', 'extra']);
    const byRenter = expectOk<TripRecord>(await record(renter, recordForm('check_in', 42_001, 8)), 201);
    expect(byRenter.party).toBe('renter');
    // Each hears that the other recorded the handover.
    expect((await noticesOf(renter.user.id, 'trip_recorded')).map((n) => n.title)).toEqual(['The host recorded the check-in']);
    expect((await noticesOf(host.user.id, 'trip_recorded')).map((n) => n.title)).toEqual(['The renter recorded the check-in']);
    expectError(await record(host, recordForm('check_in', 42_000, 7)), 409, /already recorded the check-in/);
  });

  it('refuses a bad reading with the field named', async () => {
    const res = expectError(await record(renter, recordForm('check_out', 42_000, 9)), 400);
    expect(res.errors).toHaveProperty('fuel_eighths');
  });
});

describe('reading the records', () => {
  it('the host and the renter see both records; another user gets 404', async () => {
    for (const who of [host, renter]) {
      const data = expectOk<BookingTripRecords>(await records(who));
      expect(data.records.map((r) => `${r.stage}:${r.party}`)).toEqual(['check_in:host', 'check_in:renter']);
      expect(data.can_check_in).toBe(false);
      expect(data.can_check_out).toBe(false);
    }
    expectError(await records(stranger), 404);
    expectError(await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}/trip-comparison`, headers: stranger.headers }), 404);
  });

  it("an admin reads them, and the reading is audited", async () => {
    const before = (await auditRows('trip.records_read')).length;
    expectOk<BookingTripRecords>(await records(admin));
    const rows = await auditRows('trip.records_read');
    expect(rows.length).toBe(before + 1);
    expect(rows.at(-1)).toMatchObject({ admin_id: admin.user.id, target_type: 'booking', target_id: booking.id });
  });

  it('photos are private: the parties and admins get the picture without its GPS; others 404, anonymous 401', async () => {
    const data = expectOk<BookingTripRecords>(await records(host));
    const front = data.records[0]!.photos[0]!;
    for (const who of [host, renter, admin]) {
      const res = await t.app.inject({ method: 'GET', url: front.url, headers: who.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.headers['cache-control']).toBe('private, no-store');
      const meta = await sharp(res.rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
    }
    expectError(await t.app.inject({ method: 'GET', url: front.url, headers: stranger.headers }), 404);
    expectError(await t.app.inject({ method: 'GET', url: front.url }), 401);
    expectError(await t.app.inject({ method: 'GET', url: '/api/trip-photos/not-a-photo', headers: host.headers }), 404);
    // Nothing in the public store: the file lives under the private store only.
    const key = (await t.ctx.db.selectFrom('trip_photos').select('storage_key').where('id', '=', front.id).executeTakeFirstOrThrow()).storage_key;
    expect(await t.ctx.publicFiles.read(key)).toBeNull();
    expect(await t.ctx.privateFiles.read(key)).not.toBeNull();
  });
});

describe('records are never changed or deleted', () => {
  it('the database refuses UPDATE and DELETE on records and photos', async () => {
    await expect(t.ctx.db.updateTable('trip_records').set({ odometer_km: 1 }).where('booking_id', '=', booking.id).execute()).rejects.toThrow(/never changed or deleted/);
    await expect(t.ctx.db.deleteFrom('trip_records').where('booking_id', '=', booking.id).execute()).rejects.toThrow(/never changed or deleted/);
    await expect(t.ctx.db.updateTable('trip_photos').set({ slot: 'extra' }).where('booking_id', '=', booking.id).execute()).rejects.toThrow(/never changed or deleted/);
    await expect(t.ctx.db.deleteFrom('trip_photos').where('booking_id', '=', booking.id).execute()).rejects.toThrow(/never changed or deleted/);
    const count = await t.ctx.db.selectFrom('trip_records').select((eb) => eb.fn.countAll<string>().as('n')).where('booking_id', '=', booking.id).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(2);
  });

  it('the API has no route to change or delete one', async () => {
    const data = expectOk<BookingTripRecords>(await records(host));
    const id = data.records[0]!.id;
    for (const method of ['PUT', 'PATCH', 'DELETE'] as const) {
      expect((await t.app.inject({ method, url: `/api/booking/${booking.id}/trip-records/${id}`, headers: host.headers })).statusCode).toBe(404);
    }
  });
});

describe('check-out and the comparison', () => {
  it('opens 24 hours before the scheduled return', async () => {
    t.clock.set(AT_PICKUP);
    expectError(await record(host, recordForm('check_out', 42_300, 4)), 409, 'Check-out opens 24 hours before the scheduled return.');
  });

  it('both check out; the comparison gives kilometres driven and the fuel change from the host’s records', async () => {
    t.clock.set(AT_RETURN);
    expectError(await record(host, recordForm('check_in', 42_000, 8)), 409, /Check-in closed|already recorded/);
    expectOk(await record(renter, recordForm('check_out', 42_351, 5)), 201);
    expectOk(await record(host, recordForm('check_out', 42_350, 5)), 201);
    const comparison = expectOk<TripComparison>(await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}/trip-comparison`, headers: host.headers }));
    expect(comparison.check_in).toMatchObject({ party: 'host', odometer_km: 42_000 });
    expect(comparison.check_out).toMatchObject({ party: 'host', odometer_km: 42_350 });
    expect(comparison.km_driven).toBe(350);
    expect(comparison.fuel_change_eighths).toBe(-3);
    expect(comparison.check_in!.photos).toHaveLength(5);
    // The booking's records answer carries the same comparison, to the renter's card as to the host's.
    for (const who of [host, renter]) expect(expectOk<BookingTripRecords>(await records(who)).comparison).toEqual(comparison);
  });

  it('closes 24 hours after the return, and check-in is refused on a returned trip', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const returned = await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-01', end: '2030-03-03', status: 'completed' });
    await t.ctx.db.updateTable('bookings').set({ actual_return_date: new Date('2030-03-03T10:00:00.000Z'), completed_at: new Date('2030-03-03T10:00:00.000Z') }).where('id', '=', returned.id).execute();
    t.clock.set('2030-03-04T09:00:00.000Z');
    expectOk(await record(renter, recordForm('check_out', 10_100, 6), returned.id), 201);
    t.clock.set('2030-03-04T10:00:01.000Z');
    expectError(await record(host, recordForm('check_out', 10_100, 6), returned.id), 409, 'Check-out closed 24 hours after the return.');
    expectError(await record(host, recordForm('check_in', 10_000, 8), returned.id), 409, /Check-in is only possible/);
  });

  it('an unpaid booking takes no record', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const unpaid = await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-10', end: '2030-03-12', status: 'confirmed' });
    t.clock.set('2030-03-10T06:00:00.000Z');
    expectError(await record(host, recordForm('check_in', 1, 8), unpaid.id), 409, 'Only a paid trip can be checked in or out.');
  });
});

describe('disputes', () => {
  let dispute: Dispute;

  it('only the host opens one, with at least one photo; another user gets 404', async () => {
    t.clock.set(AT_RETURN);
    expectError(await openDispute(renter, disputeForm('A scratch on the left door')), 403);
    expectError(await openDispute(stranger, disputeForm('A scratch on the left door')), 404);
    expectError(await openDispute(host, disputeForm('A scratch on the left door', 0)), 400, 'Add at least one photo of the damage or missing item.');
    expectError(await openDispute(host, disputeForm('short')), 400);
    dispute = expectOk<Dispute>(await openDispute(host, disputeForm('A scratch on the left door', 2)), 201);
    expect(dispute).toMatchObject({ status: 'open', kind: 'damage', description: 'A scratch on the left door', opened_by: { username: host.user.username } });
    expect(dispute.photos).toHaveLength(2);
    expect((await noticesOf(renter.user.id, 'dispute_opened')).map((n) => n.title)).toEqual(['The host flagged damage']);
  });

  it('both parties and admins see it with its photos; another user does not', async () => {
    for (const who of [host, renter, admin]) {
      const data = expectOk<BookingTripRecords>(await records(who));
      expect(data.disputes.map((d) => d.id)).toEqual([dispute.id]);
      const res = await t.app.inject({ method: 'GET', url: dispute.photos[0]!.url, headers: who.headers });
      expect(res.statusCode).toBe(200);
    }
    expectError(await t.app.inject({ method: 'GET', url: dispute.photos[0]!.url, headers: stranger.headers }), 404);
  });

  it('admins list open disputes; others are refused', async () => {
    const open = expectOk<Dispute[]>(await t.app.inject({ method: 'GET', url: '/api/admin/disputes', headers: admin.headers }));
    expect(open.map((d) => d.id)).toContain(dispute.id);
    expectError(await t.app.inject({ method: 'GET', url: '/api/admin/disputes', headers: host.headers }), 403);
  });

  it('an admin resolves it once with a note, audited; the facts cannot be changed or deleted', async () => {
    const resolve = (who: Signed, note = 'Renter paid for the repair directly') =>
      t.app.inject({ method: 'PATCH', url: `/api/admin/disputes/${dispute.id}/resolve`, headers: who.headers, payload: { note } });
    expectError(await resolve(host), 403);
    expectError(await resolve(admin, ''), 400);
    const resolved = expectOk<Dispute>(await resolve(admin));
    expect(resolved).toMatchObject({ status: 'resolved', resolution_note: 'Renter paid for the repair directly', resolved_at: AT_RETURN });
    expectError(await resolve(admin), 409, 'This dispute has already been resolved.');
    for (const who of [host, renter]) {
      expect((await noticesOf(who.user.id, 'dispute_resolved')).map((n) => n.message)).toEqual([`Karoo resolved the dispute on booking ${booking.booking_number}: Renter paid for the repair directly`]);
    }
    expectError(await t.app.inject({ method: 'PATCH', url: '/api/admin/disputes/00000000-0000-4000-8000-000000000000/resolve', headers: admin.headers, payload: { note: 'Nothing here' } }), 404);
    const [row] = await auditRows('trip.dispute_resolved');
    expect(row).toMatchObject({ admin_id: admin.user.id, target_id: dispute.id, target_label: booking.booking_number, reason: 'Renter paid for the repair directly' });
    const open = expectOk<Dispute[]>(await t.app.inject({ method: 'GET', url: '/api/admin/disputes', headers: admin.headers }));
    expect(open.map((d) => d.id)).not.toContain(dispute.id);
    await expect(t.ctx.db.updateTable('trip_disputes').set({ description: 'Nothing happened' }).where('id', '=', dispute.id).execute()).rejects.toThrow(/resolved once/);
    await expect(t.ctx.db.deleteFrom('trip_disputes').where('id', '=', dispute.id).execute()).rejects.toThrow(/never deleted/);
  });

  it('opens when the trip has started: refused before the pickup, taken after a check-in or from the pickup time', async () => {
    const car = await createTestCar(t.ctx, host.user);
    // 8 to 10 March 2030, 09:00 Johannesburg (07:00 UTC) to 17:00.
    const early = await createTestBooking(t.ctx, car, renter.user, { start: '2030-03-08', end: '2030-03-10', status: 'active' });
    const later = await createTestBooking(t.ctx, await createTestCar(t.ctx, host.user), renter.user, { start: '2030-03-08', end: '2030-03-10', status: 'active' });
    t.clock.set('2030-03-07T10:00:00.000Z');
    expectError(await openDispute(host, disputeForm('A scratch on the left door'), early.id), 409, 'Damage can be flagged once the trip has started: at the pickup time or after a check-in.');
    expect(expectOk<BookingTripRecords>(await records(host, early.id)).can_flag).toBe(false);
    // The renter checks in early (the window opens 24 hours before the pickup): the trip has started.
    expectOk(await record(renter, recordForm('check_in', 30_000, 8), early.id), 201);
    expect(expectOk<BookingTripRecords>(await records(host, early.id)).can_flag).toBe(true);
    expectOk<Dispute>(await openDispute(host, disputeForm('A scratch on the left door'), early.id), 201);
    // Without a check-in, one second before the pickup is refused and the pickup moment is taken.
    t.clock.set('2030-03-08T06:59:59.000Z');
    expectError(await openDispute(host, disputeForm('A dent in the bonnet'), later.id), 409, /once the trip has started/);
    t.clock.set('2030-03-08T07:00:00.000Z');
    expect(expectOk<BookingTripRecords>(await records(host, later.id)).can_flag).toBe(true);
    expectOk<Dispute>(await openDispute(host, disputeForm('A dent in the bonnet'), later.id), 201);
  });

  it('closes 14 days after the return', async () => {
    const car = await createTestCar(t.ctx, host.user);
    const old = await createTestBooking(t.ctx, car, renter.user, { start: '2030-02-01', end: '2030-02-03', status: 'completed' });
    await t.ctx.db.updateTable('bookings').set({ actual_return_date: new Date('2030-02-03T10:00:00.000Z'), completed_at: new Date('2030-02-03T10:00:00.000Z') }).where('id', '=', old.id).execute();
    t.clock.set('2030-02-17T10:00:01.000Z');
    expectError(await openDispute(host, disputeForm('A dent in the bonnet'), old.id), 409, 'Damage can be flagged until 14 days after the return.');
  });
});
