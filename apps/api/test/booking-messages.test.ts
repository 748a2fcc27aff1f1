// Booking messages (issue 21, decision 041) through the routes on the real database: who may read
// and write a conversation (another user's booking is 404), masking of contact details until the
// booking is paid, the per-sender rate limit, the 30-day rule after closing (on the test clock), an
// administrator's audited reading, unread counts, reports, and at most one email per 15 minutes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL_HIDDEN, MESSAGE_RATE_LIMIT, PHONE_HIDDEN, type BookingMessage, type Conversation, type UnreadCounts } from '@karoo/shared';
import { createSignedInUser, createTestApp, DAY, expectError, expectOk, HOUR, MINUTE, SECOND, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let admin: Signed;
let host: Signed;
let renter: Signed;
let stranger: Signed;
const BASE = '2030-03-01T08:00:00.000Z';

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(BASE);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
  stranger = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(() => t.close());

async function newBooking(options: Parameters<typeof createTestBooking>[3] = { start: '2030-04-01', days: 2 }) {
  const car = await createTestCar(t.ctx, host.user);
  return createTestBooking(t.ctx, car, renter.user, options);
}

const read = (who: Signed, id: string, query = '') => t.app.inject({ method: 'GET', url: `/api/booking/${id}/messages${query}`, headers: who.headers });
const post = (who: Signed, id: string, body: string) => t.app.inject({ method: 'POST', url: `/api/booking/${id}/messages`, headers: who.headers, payload: { body } });
/** A message written: 201 with the message as shown to its sender. */
const posted = async (who: Signed, id: string, body: string) => expectOk<BookingMessage>(await post(who, id, body), 201);
const unread = async (who: Signed) => expectOk<UnreadCounts>(await t.app.inject({ method: 'GET', url: '/api/messages/unread', headers: who.headers }));

describe('who may read and write', () => {
  it('lets the renter and the host of a pending request write to each other, in order', async () => {
    const booking = await newBooking();
    await posted(renter, booking.id, 'Hi, can I pick up at 8?');
    t.clock.advance(SECOND);
    await posted(host, booking.booking_number, 'Yes, 8 is fine.');
    const seen = expectOk<Conversation>(await read(renter, booking.id));
    expect(seen.messages.map((m) => [m.sender.role, m.body, m.mine])).toEqual([
      ['renter', 'Hi, can I pick up at 8?', true],
      ['host', 'Yes, 8 is fine.', false],
    ]);
    expect(seen).toMatchObject({ can_post: true, closed_reason: null, admin_view: false });
  });

  it('answers 404 to anyone else, reading or writing, and 401 without a sign-in', async () => {
    const booking = await newBooking();
    await posted(renter, booking.id, 'Hello');
    expectError(await read(stranger, booking.id), 404);
    expectError(await post(stranger, booking.id, 'Let me in'), 404);
    expectError(await t.app.inject({ method: 'POST', url: `/api/booking/${booking.id}/messages/read`, headers: stranger.headers }), 404);
    expectError(await read(stranger, '00000000-0000-4000-8000-000000000000'), 404);
    expectError(await t.app.inject({ method: 'GET', url: `/api/booking/${booking.id}/messages` }), 401);
    // An administrator reads (below) but never writes in someone else's conversation.
    expectError(await post(admin, booking.id, 'Admin here'), 404);
  });

  it('refuses an empty message, one over the named maximum, and control characters (400)', async () => {
    const booking = await newBooking();
    expectError(await post(renter, booking.id, '   '), 400);
    expectError(await post(renter, booking.id, 'x'.repeat(2001)), 400);
    expectError(await post(renter, booking.id, 'bell\u0007'), 400);
    await posted(renter, booking.id, 'x'.repeat(2000));
  });
});

describe('contact details', () => {
  it('are hidden from both sides until the booking is paid, stored as written and shown after', async () => {
    const booking = await newBooking({ start: '2030-04-10', days: 2, status: 'confirmed' });
    const sent = await posted(renter, booking.id, 'Call me on 082 555 1234 or mail me at jo@example.com');
    expect(sent.body).toBe(`Call me on ${PHONE_HIDDEN} or mail me at ${EMAIL_HIDDEN}`);
    expect(sent.masked).toBe(true);
    const before = expectOk<Conversation>(await read(host, booking.id));
    expect(before.messages[0]!.body).toBe(`Call me on ${PHONE_HIDDEN} or mail me at ${EMAIL_HIDDEN}`);
    expect(before.masking_reason).toMatch(/until the booking is paid/);

    await t.ctx.db.updateTable('bookings').set({ status: 'active', payment_status: 'paid', paid_at: t.clock.now() }).where('id', '=', booking.id).execute();
    const after = expectOk<Conversation>(await read(host, booking.id));
    expect(after.messages[0]).toMatchObject({ body: 'Call me on 082 555 1234 or mail me at jo@example.com', masked: false });
    expect(after.masking_reason).toBeNull();
  });
});

describe('the rate limit', () => {
  it(`allows ${MESSAGE_RATE_LIMIT} messages a minute per sender, across conversations, then 429 until the minute has passed`, async () => {
    const first = await newBooking();
    const second = await newBooking();
    t.clock.advance(2 * MINUTE);
    for (let i = 0; i < MESSAGE_RATE_LIMIT; i++) await posted(renter, i % 2 ? first.id : second.id, `message ${i}`);
    const refused = await post(renter, first.id, 'one too many');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/at most 10 messages a minute/);
    // The other side is not held back by the renter's sending.
    await posted(host, first.id, 'slow down');
    t.clock.advance(MINUTE + SECOND);
    await posted(renter, first.id, 'sorry');
  });
});

describe('closed bookings', () => {
  it('accept messages for 30 days after closing, then 409 (read only)', async () => {
    const booking = await newBooking({ start: '2030-01-10', days: 2, status: 'completed' });
    const closed = new Date(t.clock.now().getTime() - 30 * DAY + HOUR);
    await t.ctx.db.updateTable('bookings').set({ completed_at: closed }).where('id', '=', booking.id).execute();
    await posted(host, booking.id, 'Thanks for returning it clean');
    t.clock.advance(2 * HOUR);
    const refused = await post(renter, booking.id, 'You are welcome');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/closed more than 30 days ago/);
    const view = expectOk<Conversation>(await read(renter, booking.id));
    expect(view).toMatchObject({ can_post: false });
    expect(view.messages).toHaveLength(1);
  });
});

describe('unread counts and reading', () => {
  it('counts the other side\u2019s messages per booking and in all until read', async () => {
    const other = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host.user);
    const a = await createTestBooking(t.ctx, car, other.user, { start: '2030-05-01', days: 2 });
    const b = await createTestBooking(t.ctx, car, other.user, { start: '2030-06-01', days: 2 });
    t.clock.advance(2 * MINUTE);
    await posted(host, a.id, 'one');
    await posted(host, a.id, 'two');
    await posted(other, b.id, 'mine does not count');
    await posted(host, b.id, 'three');
    const counts = await unread(other);
    expect(counts.total).toBe(3);
    expect(Object.fromEntries(counts.bookings.map((c) => [c.booking_id, c.unread]))).toEqual({ [a.id]: 2, [b.id]: 1 });
    expectOk(await t.app.inject({ method: 'POST', url: `/api/booking/${a.id}/messages/read`, headers: other.headers }));
    expect((await unread(other)).total).toBe(1);
    // Replying reads what came before it.
    await posted(other, b.id, 'thanks');
    expect((await unread(other)).total).toBe(0);
  });
});

describe('an administrator', () => {
  it('reads a conversation only with a reason, unmasked and read only, and each reading is audited', async () => {
    const booking = await newBooking();
    await posted(renter, booking.id, 'My number is 082 555 1234');
    expectError(await read(admin, booking.id), 400);
    const view = expectOk<Conversation>(await read(admin, booking.id, '?reason=Dispute%20about%20a%20scratch'));
    expect(view).toMatchObject({ admin_view: true, can_post: false, masking_reason: null });
    expect(view.messages[0]!.body).toBe('My number is 082 555 1234');
    expectOk(await read(admin, booking.id, '?reason=Second%20look'));
    const audit = await t.ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', booking.id).orderBy('seq').execute();
    expect(audit.map((a) => [a.action, a.reason, a.admin_id])).toEqual([
      ['conversation.read_by_admin', 'Dispute about a scratch', admin.user.id],
      ['conversation.read_by_admin', 'Second look', admin.user.id],
    ]);
  });
});

describe('reports', () => {
  it('let a participant report a message once; anyone else gets 404', async () => {
    const booking = await newBooking();
    const message = await posted(host, booking.id, 'Pay me in cash instead');
    const url = `/api/messages/${message.id}/report`;
    expectError(await t.app.inject({ method: 'POST', url, headers: stranger.headers, payload: { reason: 'Not mine' } }), 404);
    expect((await t.app.inject({ method: 'POST', url, headers: renter.headers, payload: { reason: 'Asks to pay outside Karoo' } })).statusCode).toBe(201);
    expectError(await t.app.inject({ method: 'POST', url, headers: renter.headers, payload: { reason: 'Again' } }), 409);
    const reports = await t.ctx.db.selectFrom('booking_message_reports').selectAll().where('message_id', '=', message.id).execute();
    expect(reports).toMatchObject([{ reporter_id: renter.user.id, reason: 'Asks to pay outside Karoo' }]);
  });
});

describe('telling the other side', () => {
  it('notifies and emails the other participant at most once per conversation per 15 minutes, without the text', async () => {
    const other = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
    const car = await createTestCar(t.ctx, host.user);
    const booking = await createTestBooking(t.ctx, car, other.user, { start: '2030-07-01', days: 2 });
    t.clock.advance(2 * MINUTE);
    const mails = async () => (await t.outbox.list(other.user.email)).filter((m) => m.subject.startsWith('New message'));
    await posted(host, booking.id, 'Call 082 555 1234');
    await posted(host, booking.id, 'Second');
    t.clock.advance(14 * MINUTE);
    await posted(host, booking.id, 'Third');
    expect(await mails()).toHaveLength(1);
    expect((await mails())[0]!.text).not.toContain('555');
    const bell = await t.ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', other.user.id).where('type', '=', 'message_received').execute();
    expect(bell).toHaveLength(1);
    t.clock.advance(2 * MINUTE);
    await posted(host, booking.id, 'Fourth');
    expect(await mails()).toHaveLength(2);
  });
});

describe('the record', () => {
  it('never changes a stored message (the database refuses an update)', async () => {
    const booking = await newBooking();
    const message = await posted(renter, booking.id, 'Original words');
    await expect(t.ctx.db.updateTable('booking_messages').set({ body: 'Rewritten' }).where('id', '=', message.id).execute()).rejects.toThrow(/never changed/);
  });
});
