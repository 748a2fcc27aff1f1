// Reviews both ways (issue 21; decision 043): after a completed trip the host reviews the renter as
// the renter reviews the car, once per booking and direction, within 14 days. Neither review is
// shown to anyone but its author (and admins) until both are in or the 14 days have passed; the
// car's rating and count, the stats and every list count only shown reviews. The renter's record
// (rating from hosts, completed trips, reviews) is public, for the host's requests and the profile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BookingReviews, RenterRecord, Review, ReviewStats } from '@karoo/shared';
import type { BookingRow, CarRow } from '../src/db/schema';
import { revealDueReviews } from '../src/modules/reviews';
import { authHeader, createSignedInUser, createTestApp, expectError, expectOk, login, type TestApp } from './helpers';
import { DAY, HOUR } from './helpers/clock';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;
let stranger: Signed;
let car: CarRow;

beforeAll(async () => {
  t = await createTestApp({ env: { BROWSE_CACHE_MS: '0' } });
  t.clock.set('2030-05-01T08:00:00Z');
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  stranger = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  car = await createTestCar(t.ctx, host.user);
});
afterAll(async () => {
  await t?.close();
});

/** Signs in again after the clock moved past the session's life. */
async function signInAgain(...people: Signed[]) {
  for (const who of people) who.headers = authHeader(await login(t.app, who.user.username));
}

const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: Record<string, unknown>) =>
  t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

/** A trip of `c` completed at the clock's now. */
async function completedNow(c: CarRow, start: string, who: Signed = renter): Promise<BookingRow> {
  const b = await createTestBooking(t.ctx, c, who.user, { start, days: 2, status: 'completed' });
  return t.db.updateTable('bookings').set({ completed_at: t.clock.now() }).where('id', '=', b.id).returningAll().executeTakeFirstOrThrow();
}

const reviewCar = (c: CarRow, b: BookingRow, rating = 5, who: Signed = renter) =>
  req('POST', '/api/review/create', who.headers, { car_username: c.car_username, booking_id: b.id, rating, comment: 'Clean car, easy pickup' });
const reviewRenter = (b: BookingRow, rating = 4, who: Signed = host) =>
  req('POST', '/api/review/renter', who.headers, { booking_id: b.id, rating, comment: 'Returned it full and on time' });
const carRow = (c: CarRow) => t.db.selectFrom('cars').select(['rating', 'total_reviews']).where('id', '=', c.id).executeTakeFirstOrThrow();
const stats = async (c: CarRow) => expectOk<ReviewStats>(await req('GET', `/api/review/getStats?car_username=${c.car_username}`, {}));
const carReviews = async (c: CarRow) => expectOk<Review[]>(await req('GET', `/api/review/getAll?car_username=${c.car_username}`, {}));
const record = async (who: Signed) => expectOk<RenterRecord>(await req('GET', `/api/review/renter/${who.user.username}`, {}));
const view = async (b: BookingRow, who: Signed) => expectOk<BookingReviews>(await req('GET', `/api/review/booking/${b.id}`, who.headers));
const notices = (who: Signed, type: string) => t.db.selectFrom('notifications').select(['title', 'message']).where('user_id', '=', who.user.id).where('type', '=', type).execute();

describe('reviews both ways', () => {
  it('who may write which review: the host the renter, the renter the car; another user\u2019s booking is 404; once per direction', async () => {
    const b = await completedNow(car, '2030-04-28');
    expectError(await reviewRenter(b, 4, stranger), 404, 'Booking not found');
    expectError(await reviewRenter(b, 4, renter), 403, 'Only the host reviews the renter; you review the car.');
    expectError(await req('GET', `/api/review/booking/${b.id}`, stranger.headers), 404);
    expectError(await req('GET', '/api/review/booking/not-a-uuid', host.headers), 404);
    expectError(await req('POST', '/api/review/renter', {}, { booking_id: b.id, rating: 4, comment: 'x' }), 401);
    expectError(await reviewCar(car, b, 5, stranger), 403);

    const pending = await createTestBooking(t.ctx, car, renter.user, { start: '2030-06-01', days: 2, status: 'confirmed' });
    expectError(await req('POST', '/api/review/renter', host.headers, { booking_id: pending.id, rating: 4, comment: 'Too soon' }), 403);

    const mine = expectOk<Review>(await reviewRenter(b), 201);
    expect(mine).toMatchObject({ direction: 'renter', subject_username: renter.user.username, rating: 4 });
    expectError(await reviewRenter(b), 409, 'You have already reviewed this booking.');
    expectOk<Review>(await reviewCar(car, b), 201);
    expectError(await reviewCar(car, b), 409);
  });

  it('hidden from everyone but its author (and admins) until both are in; then shown together, ratings follow, both told', async () => {
    const c = await createTestCar(t.ctx, host.user);
    const other = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const b = await completedNow(c, '2030-04-20', other);
    const carReview = expectOk<Review>(await reviewCar(c, b, 2, other), 201);

    // Nobody else reads it: not the host, not the public, not a list, not the car's rating.
    expectError(await req('GET', `/api/review/${carReview.id}`, {}), 404);
    expectError(await req('GET', `/api/review/${carReview.id}`, host.headers), 404);
    expect(expectOk<Review>(await req('GET', `/api/review/${carReview.id}`, other.headers)).id).toBe(carReview.id);
    expect(expectOk<Review>(await req('GET', `/api/review/${carReview.id}`, admin.headers)).id).toBe(carReview.id);
    expect(await carReviews(c)).toEqual([]);
    expect((await stats(c)).count).toBe(0);
    expect(expectOk<Review[]>(await req('GET', `/api/review/getAll?user_username=${other.user.username}`, {}))).toEqual([]);
    expect(expectOk<Review[]>(await req('GET', `/api/review/getAll?user_username=${other.user.username}`, host.headers))).toEqual([]);
    // The author's own list has it (My Bookings knows the trip is reviewed).
    expect(expectOk<Review[]>(await req('GET', `/api/review/getAll?user_username=${other.user.username}`, other.headers)).map((r) => r.id)).toEqual([carReview.id]);
    const page = expectOk<Review[]>(await req('GET', '/api/review/getList?limit=100', {}));
    expect(page.map((r) => r.id)).not.toContain(carReview.id);
    expect(await carRow(c)).toMatchObject({ rating: null, total_reviews: 0 });

    const hostView = await view(b, host);
    expect(hostView).toMatchObject({ side: 'host', mine: null, theirs: null, can_review: true, revealed: false, other_name: other.user.full_name });
    expect(hostView.window_ends_at).toBe(new Date(t.clock.now().getTime() + 14 * DAY).toISOString());
    const told = await notices(host, 'review_received');
    expect(told.at(-1)?.title).toBe('You can review now');
    expect(told.at(-1)?.message).toContain('both reviews appear together');
    expect(told.at(-1)?.message).not.toContain('Clean car');
    expect((await view(b, other))).toMatchObject({ side: 'renter', can_review: false, revealed: false, theirs: null });

    expectOk<Review>(await reviewRenter(b, 5), 201);
    expect((await carReviews(c)).map((r) => r.id)).toEqual([carReview.id]);
    expect(await stats(c)).toMatchObject({ count: 1, average: 2 });
    expect(Number((await carRow(c)).rating)).toBe(2);
    expect((await carRow(c)).total_reviews).toBe(1);
    expect(await view(b, other)).toMatchObject({ revealed: true, theirs: { rating: 5, direction: 'renter' } });
    expect(await record(other)).toMatchObject({ rating: 5, review_count: 1, completed_trips: 1 });
    expect((await notices(other, 'reviews_revealed')).length).toBe(1);
    expect((await notices(host, 'reviews_revealed')).length).toBeGreaterThanOrEqual(1);

    // Once both are shown, the author cannot answer the other review by editing theirs; an admin can.
    expectError(await req('PUT', `/api/review/${carReview.id}`, other.headers, { rating: 1 }), 409, 'Reviews cannot be changed once both are shown.');
    expectOk(await req('PUT', `/api/review/${carReview.id}`, admin.headers, { rating: 3 }));
  });

  it('the 14-day rule under a moved clock: one review alone is shown after 14 days, ratings and counts follow, the late side cannot write', async () => {
    const c = await createTestCar(t.ctx, host.user);
    const late = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const start = t.clock.now();
    const b = await completedNow(c, '2030-04-15', late);
    t.clock.advance(2 * DAY);
    await signInAgain(late);
    const review = expectOk<Review>(await reviewCar(c, b, 4, late), 201);

    t.clock.set(start.getTime() + 14 * DAY - HOUR);
    expect(await revealDueReviews(t.ctx)).toBe(0);
    expectError(await req('GET', `/api/review/${review.id}`, {}), 404);
    expect((await stats(c)).count).toBe(0);
    expect(await carRow(c)).toMatchObject({ total_reviews: 0 });

    t.clock.set(start.getTime() + 14 * DAY);
    // Shown at once to readers (stats, lists); the cached rating follows when the reveal job runs.
    expect((await req('GET', `/api/review/${review.id}`, {})).statusCode).toBe(200);
    expect((await stats(c)).count).toBe(1);
    expect((await carReviews(c)).map((r) => r.id)).toEqual([review.id]);
    expect(await revealDueReviews(t.ctx)).toBe(1);
    expect(Number((await carRow(c)).rating)).toBe(4);
    expect((await carRow(c)).total_reviews).toBe(1);
    expect((await notices(late, 'reviews_revealed')).length).toBe(1);
    expect(await revealDueReviews(t.ctx)).toBe(0);

    await signInAgain(host);
    expectError(await reviewRenter(b), 409, /window has closed/);
    expect(await view(b, host)).toMatchObject({ can_review: false, mine: null, theirs: { id: review.id } });
  });

  it('a host\u2019s review of the renter alone is shown after 14 days in the renter\u2019s record; the renter can no longer review the car', async () => {
    const c = await createTestCar(t.ctx, host.user);
    const who = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const b = await completedNow(c, '2030-04-10', who);
    expectOk<Review>(await reviewRenter(b, 3), 201);
    expect(await record(who)).toMatchObject({ rating: null, review_count: 0, completed_trips: 1, reviews: [] });
    t.clock.advance(14 * DAY);
    await signInAgain(host, who);
    expect(await record(who)).toMatchObject({ rating: 3, review_count: 1, completed_trips: 1 });
    expect((await record(who)).reviews[0]).toMatchObject({ rating: 3, reviewer: { username: host.user.username } });
    expectError(await reviewCar(c, b, 5, who), 409, /window has closed/);
    expectError(await req('POST', '/api/review/create', who.headers, { car_username: c.car_username, rating: 5, comment: 'Late' }), 409, /window has closed/);
  });

  it('the renter\u2019s record: revealed reviews\u2019 average and completed trips; a new renter has none; unknown user 404', async () => {
    const fresh = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    expect(await record(fresh)).toMatchObject({ rating: null, review_count: 0, completed_trips: 0, reviews: [] });
    expectError(await req('GET', '/api/review/renter/nobody-here', {}), 404);
  });
});
