// Traffic fines under AARTO (issue 34; decision 066), through the routes on the real database: a
// fine is matched to the trip that had the car (check-in to check-out records when they exist, else
// the booked times; both ends included), a moment no trip covers names the nearest trips, the renter
// is told, the AARTO 07 nomination carries the renter's four particulars and nothing more, every
// entry and nomination is an audit row whoever acts, the states move by who may move them, the
// deadline reminder goes once, bad input is a clear 4xx and strangers get 404.
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignedInUser, createTestApp, expectError, expectOk, multipart, pdfBytes, rememberedSession, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';
import { remindFineDeadlines } from '../src/modules/trips/traffic-fines.service';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;
type Span = { booking_id: string; booking_number: string; from: string; to: string } | null;
type Fine = { id: string; status: string; trip: Span; nearest: { before: Span; after: Span }; nomination_url: string | null; nominate_by: string; days_left: number; amount: number };

let t: TestApp;
let host: Signed;
let renterA: Signed;
let renterB: Signed;
let admin: Signed;
let stranger: Signed;
let tripA: { id: string; booking_number: string };
let tripB: { id: string; booking_number: string };
const PLATE = 'CA 123-456';
let notices = 0;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2030-03-01T08:00:00.000Z');
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified', full_name: 'Thabo Host', overrides: { id_number: '8001015009087', address: '5 Owner Rd, Johannesburg, 2000' } });
  renterA = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified', full_name: 'Naledi Renter', overrides: { id_number: '9202025800081', address: '12 Driver Ave, Cape Town, 8001', phone_number: '+27 82 999 1234' } });
  renterB = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified', full_name: 'Sipho Other' });
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  stranger = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  const car = await createTestCar(t.ctx, host.user, { make: 'Toyota', model: 'Corolla', overrides: { car_plate_number: PLATE } });
  // Trip A, 10 to 12 March: checked in at 08:45 and out at 17:30 (Johannesburg), so its span is the records'.
  const a = await createTestBooking(t.ctx, car, renterA.user, { start: '2030-03-10', end: '2030-03-12', status: 'completed' });
  await record(a.id, renterA.user.id, 'check_in', '2030-03-10T06:45:00.000Z');
  await record(a.id, host.user.id, 'check_out', '2030-03-12T15:30:00.000Z');
  // Trip B, 20 to 22 March, no records: its span is the booked 09:00 to 17:00.
  const b = await createTestBooking(t.ctx, car, renterB.user, { start: '2030-03-20', end: '2030-03-22', status: 'completed' });
  tripA = { id: a.id, booking_number: a.booking_number };
  tripB = { id: b.id, booking_number: b.booking_number };
  // A cancelled booking between them never had the car: it is no trip.
  await createTestBooking(t.ctx, car, renterB.user, { start: '2030-03-15', end: '2030-03-16', status: 'cancelled' });
  // Signed in afresh ("remember me", 30 days) on the clock the tests run at.
  t.clock.set('2030-04-01T08:00:00.000Z');
  host = await rememberedSession(t.app, host);
  renterA = await rememberedSession(t.app, renterA);
  renterB = await rememberedSession(t.app, renterB);
  admin = await rememberedSession(t.app, admin);
  stranger = await rememberedSession(t.app, stranger);
});

afterAll(() => t.close());

async function record(bookingId: string, authorId: string, stage: 'check_in' | 'check_out', at: string) {
  await t.ctx.db
    .insertInto('trip_records')
    .values({ booking_id: bookingId, stage, party: authorId === host.user.id ? 'host' : 'renter', author_id: authorId, odometer_km: 10_000, fuel_eighths: 8, note: '', created_at: new Date(at) })
    .execute();
}

function fineBody(overrides: Record<string, unknown> = {}) {
  notices += 1;
  return { plate: 'ca123456', date: '2030-03-11', time: '14:00', place: 'N1 near Kraaifontein', amount: 500, notice_number: `AARTO-${String(notices).padStart(6, '0')}`, served_on: '2030-03-25', ...overrides };
}

function enter(who: Signed, fine: Record<string, unknown>, notice: { data: Buffer; filename: string; contentType: string } | null = { data: pdfBytes('AARTO 03 notice'), filename: 'notice.pdf', contentType: 'application/pdf' }) {
  const body = multipart([{ name: 'fine', value: JSON.stringify(fine) }, ...(notice ? [{ name: 'notice', ...notice }] : [])]);
  return t.app.inject({ method: 'POST', url: '/api/fines', headers: { ...who.headers, ...body.headers }, payload: body.payload });
}

const get = (who: Signed, url: string) => t.app.inject({ method: 'GET', url, headers: who.headers });
const auditOf = (action: string) => t.ctx.db.selectFrom('audit_log').select(['admin_id', 'action', 'target_type', 'target_id', 'after']).where('action', '=', action).orderBy('seq').execute();

describe('matching a fine to the trip that had the car', () => {
  it('matches a moment inside a trip and tells its renter', async () => {
    const fine = expectOk<Fine>(await enter(host, fineBody()), 201);
    expect(fine.trip).toMatchObject({ booking_id: tripA.id, booking_number: tripA.booking_number, from: '2030-03-10T06:45:00.000Z', to: '2030-03-12T15:30:00.000Z' });
    expect(fine.nomination_url).toBe(`/api/fines/${fine.id}/nomination.pdf`);
    // Served 25 March: 32 days later is 26 April, 25 days from 1 April.
    expect(fine).toMatchObject({ nominate_by: '2030-04-26', days_left: 25, amount: 500, status: 'open' });
    const told = await t.ctx.db.selectFrom('notifications').select(['title', 'message']).where('user_id', '=', renterA.user.id).where('type', '=', 'traffic_fine_recorded').execute();
    expect(told).toHaveLength(1);
    expect(told[0]!.message).toContain(tripA.booking_number);
    expect(told[0]!.message).toMatch(/AARTO 07/);
    // Nobody else was told.
    expect(await t.ctx.db.selectFrom('notifications').select('id').where('user_id', '=', renterB.user.id).where('type', '=', 'traffic_fine_recorded').execute()).toHaveLength(0);
  });

  it.each([
    ['the check-in record, exactly (before the booked 09:00)', '2030-03-10', '08:45', 'A'],
    ['the check-out record, exactly (after the booked 17:00)', '2030-03-12', '17:30', 'A'],
    ['the booked start of a trip without records', '2030-03-20', '09:00', 'B'],
    ['the booked end of a trip without records', '2030-03-22', '17:00', 'B'],
  ])('includes %s', async (_label, date, time, which) => {
    const fine = expectOk<Fine>(await enter(host, fineBody({ date, time })), 201);
    expect(fine.trip?.booking_id).toBe(which === 'A' ? tripA.id : tripB.id);
  });

  it.each([
    ['a minute before the check-in', '2030-03-10', '08:44', null, 'A'],
    ['a minute after the check-out', '2030-03-12', '17:31', 'A', 'B'],
    ['between the trips (a cancelled booking is no trip)', '2030-03-15', '12:00', 'A', 'B'],
    ['a minute after the last trip', '2030-03-22', '17:01', 'B', null],
  ])('says no trip covers %s and names the nearest trips', async (_label, date, time, before, after) => {
    const res = await enter(host, fineBody({ date, time }));
    const fine = expectOk<Fine>(res, 201);
    expect((res.json() as { message: string }).message).toBe('Fine entered: no trip had the car at that moment');
    expect(fine.trip).toBeNull();
    expect(fine.nomination_url).toBeNull();
    const id = (w: string | null) => (w === 'A' ? tripA.id : w === 'B' ? tripB.id : null);
    expect(fine.nearest.before?.booking_id ?? null).toBe(id(before));
    expect(fine.nearest.after?.booking_id ?? null).toBe(id(after));
    expectError(await get(host, `/api/fines/${fine.id}/nomination.pdf`), 409, /outside every trip/);
  });
});

describe('entering a fine: bad input is a clear 4xx', () => {
  it.each([
    ['no notice file', fineBody(), null, 400, 'Add a photo or PDF of the infringement notice.'],
    ['a plate none of the host’s cars has', fineBody({ plate: 'GP 999 ZZ' }), undefined, 400, /None of your cars has the plate/],
    ['a moment in the future', fineBody({ date: '2030-04-02' }), undefined, 400, 'The infringement cannot be in the future.'],
    ['a notice served before the infringement', fineBody({ served_on: '2030-03-01' }), undefined, 400, /served before/],
    ['a date that is not one', fineBody({ date: '2030-02-30' }), undefined, 400, /real date/],
    ['a time that is not one', fineBody({ time: '25:00' }), undefined, 400, /HH:mm/],
    ['a negative amount', fineBody({ amount: -5 }), undefined, 400, /more than R 0/],
    ['a file that is no PDF or picture', fineBody(), { data: Buffer.from('just text, not a notice'), filename: 'notice.txt', contentType: 'text/plain' }, 400, /not a PDF, JPEG or PNG/],
  ])('refuses %s', async (_label, body, notice, status, message) => {
    expectError(await enter(host, body, notice === undefined ? undefined : notice), status, message);
  });

  it('refuses the same notice twice (409) and a renter entering one (403)', async () => {
    const body = fineBody();
    expectOk(await enter(host, body), 201);
    expectError(await enter(host, body), 409, /already entered/);
    expectError(await enter(renterA, fineBody()), 403);
    // Another host cannot enter a fine for this car: the plate is none of theirs.
    expectError(await enter(stranger, fineBody()), 400, /None of your cars/);
  });

  it('refuses a multipart field that is not JSON', async () => {
    const body = multipart([{ name: 'fine', value: '{not json' }]);
    expectError(await t.app.inject({ method: 'POST', url: '/api/fines', headers: { ...host.headers, ...body.headers }, payload: body.payload }), 400, 'The field fine must be JSON.');
  });
});

describe('the AARTO 07 nomination', () => {
  let fine: Fine;

  beforeAll(async () => {
    // The renter adds their licence number to their profile (verified members may add it, once).
    expectOk(await t.app.inject({ method: 'PUT', url: `/api/user/update/${renterA.user.id}`, headers: renterA.headers, payload: { driver_licence_number: '4021 0000 12ab' } }));
    fine = expectOk<Fine>(await enter(host, fineBody({ date: '2030-03-11', time: '10:15', amount: 1250, notice_number: 'AARTO-NOM-0001' })), 201);
  });

  it('is pre-filled with the renter’s four particulars, the car, the notice and the host’s signature lines, and nothing else of the renter', async () => {
    const res = await get(host, fine.nomination_url!);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: res.rawPayload }).toString('utf8').replace(/\u00a0/g, ' ');
    expect(text).toMatch(/AARTO 07: Nomination of driver/);
    expect(text).toMatch(/Notice number\s+AARTO-NOM-0001/);
    expect(text).toMatch(/Place\s+N1 near Kraaifontein/);
    expect(text).toMatch(/Penalty\s+R 1 250/);
    expect(text).toMatch(/Nominate by\s+.*26 Apr.*\(32 days after service\)/);
    expect(text).toMatch(/Licence number \(plate\)\s+CA 123-456/);
    expect(text).toMatch(/Toyota Corolla/);
    // The owner.
    expect(text).toMatch(/Full name\s+Thabo Host/);
    expect(text).toMatch(/8001015009087/);
    // The driver: full name, ID number, licence number, address.
    expect(text).toMatch(/Full name\s+Naledi Renter/);
    expect(text).toMatch(/Identity number\s+9202025800081/);
    expect(text).toMatch(/Driving licence number\s+4021000012AB/);
    expect(text).toMatch(/Address\s+12 Driver Ave, Cape Town, 8001/);
    expect(text).toContain(tripA.booking_number);
    expect(text).toMatch(/Signature of the owner/);
    expect(text).toMatch(/aarto\.gov\.za/);
    // Least data: no phone, no email, no bank account.
    expect(text).not.toContain('999 1234');
    expect(text).not.toContain(renterA.user.email);
    expect(text).not.toContain('62012345678');
  });

  it('is audited on creation and on every download, whoever acts', async () => {
    const entered = (await auditOf('trip.fine_recorded')).filter((r) => (r.after as { fine: string }).fine === fine.id);
    expect(entered).toEqual([expect.objectContaining({ admin_id: host.user.id, target_type: 'booking', target_id: tripA.id })]);
    const before = (await auditOf('trip.fine_nomination_issued')).length;
    expect((await get(host, fine.nomination_url!)).statusCode).toBe(200);
    expect((await get(admin, fine.nomination_url!)).statusCode).toBe(200);
    const issued = (await auditOf('trip.fine_nomination_issued')).slice(before);
    expect(issued.map((r) => r.admin_id)).toEqual([host.user.id, admin.user.id]);
    expect(issued[0]!.after).toMatchObject({ fine: fine.id, fields: ['full_name', 'id_number', 'driver_licence_number', 'address'] });
  });

  it('is the host’s to sign: the renter may read the fine but not make the nomination', async () => {
    const seen = expectOk<Fine[]>(await get(renterA, `/api/booking/${tripA.id}/fines`));
    const mine = seen.find((f) => f.id === fine.id)!;
    expect(mine.nomination_url).toBeNull();
    expect(mine.nearest).toEqual({ before: null, after: null });
    expectError(await get(renterA, fine.nomination_url!), 403);
    expect((await get(renterA, `/api/fines/${fine.id}/notice`)).statusCode).toBe(200);
  });

  it('answers strangers 404 for the fine, its notice, its nomination, its trip’s fines and its state', async () => {
    for (const who of [stranger, renterB]) {
      expectError(await get(who, `/api/fines/${fine.id}`), 404);
      expectError(await get(who, `/api/fines/${fine.id}/notice`), 404);
      expectError(await get(who, fine.nomination_url!), 404);
      expectError(await t.app.inject({ method: 'PATCH', url: `/api/fines/${fine.id}/status`, headers: who.headers, payload: { status: 'paid_by_renter' } }), 404);
    }
    expectError(await get(stranger, `/api/booking/${tripA.id}/fines`), 404);
    expect((await get(stranger, '/api/fines')).json().data).toEqual([]);
    expectError(await get(stranger, '/api/fines/not-a-uuid'), 404);
  });

  it('moves by who may move it: the host nominates, the renter says they paid; a settled fine moves no more', async () => {
    const patch = (who: Signed, payload: Record<string, unknown>) => t.app.inject({ method: 'PATCH', url: `/api/fines/${fine.id}/status`, headers: who.headers, payload });
    expectError(await patch(renterA, { status: 'withdrawn' }), 403);
    expectError(await patch(renterA, { status: 'disputed', note: 'no' }), 400, /at least 10 characters/);
    expectOk(await patch(host, { status: 'nominated', note: 'Submitted on aarto.gov.za' }));
    const told = await t.ctx.db.selectFrom('notifications').select('message').where('user_id', '=', renterA.user.id).where('type', '=', 'traffic_fine_updated').execute();
    expect(told.map((n) => n.message)).toEqual([expect.stringMatching(/nominated you as the driver/)]);
    expect(expectOk<Fine>(await patch(renterA, { status: 'paid_by_renter' })).status).toBe('paid_by_renter');
    expectError(await patch(host, { status: 'withdrawn' }), 409);
    expectError(await patch(host, { status: 'lost' }), 400);
    const moves = (await auditOf('trip.fine_status_changed')).filter((r) => (r.after as { fine: string }).fine === fine.id);
    expect(moves.map((r) => [r.admin_id, (r.after as { status: string }).status])).toEqual([
      [host.user.id, 'nominated'],
      [renterA.user.id, 'paid_by_renter'],
    ]);
  });

  it('lists every fine for admins, and none of the admin list for a host', async () => {
    const all = expectOk<Fine[]>(await get(admin, '/api/admin/fines'));
    expect(all.some((f) => f.id === fine.id)).toBe(true);
    expect((await get(host, '/api/admin/fines')).statusCode).toBeGreaterThanOrEqual(403);
    expect(expectOk<Fine[]>(await get(admin, '/api/admin/fines?status=paid_by_renter')).map((f) => f.id)).toContain(fine.id);
  });
});

describe('the deadline reminder', () => {
  it('reminds the host once, a week before the 32 days end, of fines still open', async () => {
    // Served 1 April: the last day to nominate is 3 May.
    const fine = expectOk<Fine>(await enter(host, fineBody({ date: '2030-03-11', time: '11:00', served_on: '2030-04-01', notice_number: 'AARTO-REM-0001' })), 201);
    expect(fine.nominate_by).toBe('2030-05-03');
    const reminders = () => t.ctx.db.selectFrom('notifications').select(['title', 'message']).where('user_id', '=', host.user.id).where('type', '=', 'traffic_fine_deadline').where('title', 'like', '%AARTO-REM-0001%').execute();
    // 25 April is 8 days before: nothing yet.
    t.clock.set('2030-04-25T06:15:00.000Z');
    await remindFineDeadlines(t.ctx);
    expect(await reminders()).toHaveLength(0);
    // 26 April: 7 days left.
    t.clock.set('2030-04-26T06:15:00.000Z');
    await remindFineDeadlines(t.ctx);
    const sent = await reminders();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.message).toMatch(/^7 day\(s\) are left to nominate the driver of traffic fine AARTO-REM-0001/);
    expect(sent[0]!.message).toMatch(/Download the AARTO 07 nomination/);
    // The next morning, nothing again.
    t.clock.set('2030-04-27T06:15:00.000Z');
    await remindFineDeadlines(t.ctx);
    expect(await reminders()).toHaveLength(1);
    // A fine already nominated is never reminded.
    const nominated = await t.ctx.db.selectFrom('traffic_fines').select('reminded_at').where('notice_number', '=', 'AARTO-NOM-0001').executeTakeFirstOrThrow();
    expect(nominated.reminded_at).toBeNull();
  });
});
