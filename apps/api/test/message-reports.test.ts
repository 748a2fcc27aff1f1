// Reported messages reach administrators (issue 21, decision 041): every administrator is told when a
// participant reports a message; an administrator lists the open reports (newest first, paged and
// searched, the message as written) and marks one handled with a note, once, in the audit log.
// Anyone else is refused: 401 without a sign-in, 403 for customers and hosts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminMessageReport, BookingMessage, MessageReport } from '@karoo/shared';
import { createSignedInUser, createTestApp, expectError, expectOk, MINUTE, type TestApp } from './helpers';
import { createTestBooking, createTestCar } from './helpers/vehicles';

type Signed = Awaited<ReturnType<typeof createSignedInUser>>;

let t: TestApp;
let admin: Signed;
let secondAdmin: Signed;
let host: Signed;
let renter: Signed;
const BASE = '2030-03-01T08:00:00.000Z';
const LIST = '/api/admin/messages/reports';

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set(BASE);
  admin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  secondAdmin = await createSignedInUser(t.app, t.ctx, { role: 'admin', verification_status: 'verified' });
  host = await createSignedInUser(t.app, t.ctx, { role: 'host', verification_status: 'verified' });
  renter = await createSignedInUser(t.app, t.ctx, { verification_status: 'verified' });
});
afterAll(() => t.close());

/** An unpaid booking (contact details masked for its participants) with a message from the host. */
async function reportableMessage(body = 'Pay me in cash on 082 555 1234 instead') {
  const car = await createTestCar(t.ctx, host.user);
  const booking = await createTestBooking(t.ctx, car, renter.user, { start: '2030-04-01', days: 2 });
  const message = expectOk<BookingMessage>(await t.app.inject({ method: 'POST', url: `/api/booking/${booking.id}/messages`, headers: host.headers, payload: { body } }), 201);
  return { booking, message };
}

const report = async (who: Signed, messageId: string, reason: string) =>
  expectOk<MessageReport>(await t.app.inject({ method: 'POST', url: `/api/messages/${messageId}/report`, headers: who.headers, payload: { reason } }), 201);
const list = (who: Signed | null, query = '') => t.app.inject({ method: 'GET', url: `${LIST}${query}`, ...(who ? { headers: who.headers } : {}) });
const resolve = (who: Signed | null, id: string, note: string) =>
  t.app.inject({ method: 'POST', url: `${LIST}/${id}/resolve`, payload: { note }, ...(who ? { headers: who.headers } : {}) });
const openReports = async (query = '') => {
  const response = await list(admin, query);
  expect(response.statusCode).toBe(200);
  return response.json<{ data: AdminMessageReport[]; meta: { total: number; page: number; limit: number } }>();
};

describe('the list of open reports', () => {
  it('shows admins each open report, newest first, with booking, reporter, reason and the message unmasked, and how often it was reported', async () => {
    const { booking, message } = await reportableMessage();
    const first = await report(renter, message.id, 'Asks to pay outside Karoo');
    t.clock.advance(MINUTE);
    const second = await reportableMessage('Bring the car back dirty, I do not care');
    const later = await report(renter, second.message.id, 'Rude');
    // The host reports the renter's message too: a message may be reported by both.
    const renterMessage = expectOk<BookingMessage>(await t.app.inject({ method: 'POST', url: `/api/booking/${booking.id}/messages`, headers: renter.headers, payload: { body: 'Fine' } }), 201);
    t.clock.advance(MINUTE);
    await report(host, renterMessage.id, 'Not fine');

    const page = await openReports(`?search=${booking.booking_number}`);
    expect(page.meta).toEqual({ total: 2, page: 1, limit: 20 });
    expect(page.data[1]).toEqual({
      id: first.id,
      booking_id: booking.id,
      booking_number: booking.booking_number,
      reporter: { id: renter.user.id, username: renter.user.username },
      reason: 'Asks to pay outside Karoo',
      created_at: BASE,
      message: {
        id: message.id,
        sender: { id: host.user.id, username: host.user.username, full_name: host.user.full_name },
        body: 'Pay me in cash on 082 555 1234 instead',
        created_at: BASE,
        report_count: 1,
      },
      resolved_at: null,
      resolution_note: null,
    });
    expect(page.data[0]!.reason).toBe('Not fine');

    const all = await openReports('?limit=2');
    expect(all.data.map((r) => r.reason)).toEqual(['Not fine', 'Rude']);
    expect(all.data[1]!.id).toBe(later.id);
    expect(all.meta.total).toBeGreaterThanOrEqual(3);
    expect((await openReports(`?limit=2&page=2`)).data.map((r) => r.id)).toContain(first.id);
  });

  it('counts every report of the same message', async () => {
    const { booking, message } = await reportableMessage('Send me your card number');
    await report(renter, message.id, 'Wants my card');
    // A second report of the same message, written straight to the table (a participant reports a message once).
    await t.ctx.db.insertInto('booking_message_reports').values({ message_id: message.id, reporter_id: admin.user.id, reason: 'Seen in review', created_at: t.clock.now() }).execute();
    const page = await openReports(`?search=${booking.booking_number}`);
    expect(page.data.map((r) => r.message.report_count)).toEqual([2, 2]);
  });

  it('refuses guests (401) and anyone but an administrator (403)', async () => {
    expectError(await list(null), 401);
    expectError(await list(renter), 403);
    expectError(await list(host), 403);
  });
});

describe('telling administrators', () => {
  it('notifies every administrator when a message is reported, with the booking and the reason but not the message', async () => {
    const { booking, message } = await reportableMessage('Meet me at 082 555 9999');
    await report(renter, message.id, 'Wants to meet off the platform');
    for (const who of [admin, secondAdmin]) {
      const notices = await t.ctx.db.selectFrom('notifications').selectAll().where('user_id', '=', who.user.id).where('type', '=', 'message_reported').execute();
      const notice = notices.find((n) => n.title.includes(booking.booking_number));
      expect(notice).toMatchObject({ link: '/admin?tab=bookings' });
      expect(notice!.message).toContain('Wants to meet off the platform');
      // The message's words, not a fragment a random booking number could also hold.
      expect(notice!.message).not.toContain('Meet me');
      expect(notice!.message).not.toContain('555 9999');
    }
    const others = await t.ctx.db.selectFrom('notifications').selectAll().where('user_id', 'in', [host.user.id, renter.user.id]).where('type', '=', 'message_reported').execute();
    expect(others).toEqual([]);
  });
});

describe('marking a report handled', () => {
  it('closes the report with the note, once (409 after), in the audit log, and takes it off the list', async () => {
    const { booking, message } = await reportableMessage('Cash only');
    const filed = await report(renter, message.id, 'Cash only is not allowed');
    t.clock.advance(MINUTE);
    const handled = expectOk<AdminMessageReport>(await resolve(admin, filed.id, 'Warned the host'));
    expect(handled).toMatchObject({ id: filed.id, resolution_note: 'Warned the host', resolved_at: t.clock.now().toISOString() });
    expectError(await resolve(admin, filed.id, 'Again'), 409);
    expectError(await resolve(secondAdmin, filed.id, 'Me too'), 409);
    expect((await openReports(`?search=${booking.booking_number}`)).data).toEqual([]);

    const audit = await t.ctx.db.selectFrom('audit_log').selectAll().where('target_id', '=', booking.id).execute();
    expect(audit.map((a) => [a.action, a.admin_id, a.target_type, a.target_label, a.reason])).toEqual([
      ['message.report_resolved', admin.user.id, 'booking', booking.booking_number, 'Warned the host'],
    ]);
    expect(audit[0]!.after).toMatchObject({ report: filed.id, message: message.id, status: 'resolved' });
  });

  it('answers 404 for an unknown report, 400 without a note, 401 for guests and 403 for others', async () => {
    expectError(await resolve(admin, '00000000-0000-4000-8000-000000000000', 'Nothing here'), 404);
    expectError(await resolve(admin, 'not-a-report', 'Nothing here'), 404);
    const { message } = await reportableMessage('Hello');
    const filed = await report(renter, message.id, 'Spam');
    expectError(await resolve(admin, filed.id, ''), 400);
    expectError(await resolve(null, filed.id, 'Guest'), 401);
    expectError(await resolve(renter, filed.id, 'Mine now'), 403);
    expectError(await resolve(host, filed.id, 'Mine now'), 403);
    expect((await t.ctx.db.selectFrom('booking_message_reports').select('resolved_at').where('id', '=', filed.id).executeTakeFirstOrThrow()).resolved_at).toBeNull();
  });

  it('is the only change the database lets a report take', async () => {
    const { message } = await reportableMessage('Hi');
    const filed = await report(renter, message.id, 'Odd');
    await expect(t.ctx.db.updateTable('booking_message_reports').set({ reason: 'Changed' }).where('id', '=', filed.id).execute()).rejects.toThrow(/only ever resolved once/);
  });
});
