// Data for `npm run bench:scale` (issue 32): the marketplace of seed-bench-data.ts (hosts, renters,
// cars, BOOKINGS_PER_CAR bookings per car) with what a lived-in Karoo has beside its bookings, all
// in SQL (INSERT ... SELECT FROM generate_series) so 200,000 bookings take a minute:
// - ledger rows by the rules of ledger.repository.ts: each paid booking (confirmed, active,
//   completed) its charge and its shares at paid_at (the host's earning, the platform's service
//   fee, insurance and host fee, summing to the charge); each completed trip marked paid its payout
//   on the day after it ended;
// - two messages per booking (the host greets the renter by name, the renter answers), a
//   notification to each party naming the other, an email to the renter naming the host, and an
//   audit row for a third of the bookings (an administrator read the conversation), so the tables a
//   full-text sweep would read are as big as the bookings;
// - two members to delete (MEMBER_USERNAME, who deletes their own account, and ADMIN_TARGET_USERNAME,
//   whom an administrator deletes), each the renter of 40 trips in the past with their messages,
//   notices and mail, and no blocker (no trip under way, no refund owed), and an administrator
//   (ADMIN_USERNAME); all three sign in with SCALE_PASSWORD.
import { sql } from 'kysely';
import type { Db } from '../src/db/connection';
import { hashPassword } from '../src/lib/passwords';
import { seedBenchData } from './seed-bench-data';

export const SCALE_PASSWORD = 'scale-bench-password';
export const MEMBER_USERNAME = 'scale_member';
export const ADMIN_TARGET_USERNAME = 'scale_admin_target';
export const ADMIN_USERNAME = 'scale_admin';
/** Bookings per car: slots of 12 days over the bench's 240 (seed-bench-data.ts). */
const BOOKINGS_PER_CAR = 20;
const MEMBER_TRIPS = 40;

export interface ScaleSeedResult {
  bookings: number;
  ledgerRows: number;
  messages: number;
  notifications: number;
  mails: number;
  auditRows: number;
  seconds: number;
}

async function addPeople(db: Db): Promise<void> {
  const hash = await hashPassword(SCALE_PASSWORD);
  await sql`
    INSERT INTO users (username, email, password_hash, full_name, phone_number, address, role, user_type, verification_status, verified_at, created_at)
    VALUES
      (${MEMBER_USERNAME}, 'thandi.member@example.co.za', ${hash}, 'Thandiwe Mokoena', '+27 82 555 0101', '14 Long Street, Cape Town', 'customer', NULL, 'verified', now() - interval '300 days', now() - interval '400 days'),
      (${ADMIN_TARGET_USERNAME}, 'pieter.target@example.co.za', ${hash}, 'Pieter van der Merwe', '+27 83 555 0102', '9 Church Street, Stellenbosch', 'customer', NULL, 'verified', now() - interval '300 days', now() - interval '400 days'),
      (${ADMIN_USERNAME}, 'scale.admin@example.co.za', ${hash}, 'Scale Admin', NULL, NULL, 'admin', NULL, 'verified', now() - interval '300 days', now() - interval '400 days')
  `.execute(db);
  // Each member rents MEMBER_TRIPS trips that are over (completed, rejected or cancelled unpaid): nothing blocks their deletion.
  for (const [k, username] of [MEMBER_USERNAME, ADMIN_TARGET_USERNAME].entries()) {
    await sql`
      UPDATE bookings SET renter_id = (SELECT id FROM users WHERE username = ${username})
      WHERE id IN (
        SELECT id FROM bookings WHERE status IN ('completed', 'rejected', 'cancelled') AND end_date < current_date
        ORDER BY hashtext(id::text || ${`member${k}`}) LIMIT ${MEMBER_TRIPS}
      )
    `.execute(db);
  }
}

async function addLedger(db: Db): Promise<void> {
  // A charge and its shares (recordTripCharge): host 85% of the subtotal, the platform its service
  // fee, no insurance on these trips, and its host fee (the rest); the five rows sum to the charge.
  await sql`
    INSERT INTO ledger_entries (booking_id, renter_id, host_id, kind, code, amount_cents, moved_at, recorded_at, charge_reference)
    SELECT b.id, b.renter_id, b.owner_id, p.kind, p.code, p.amount, b.paid_at, b.paid_at, 'bench_' || b.booking_number
    FROM bookings b
    CROSS JOIN LATERAL (VALUES
      ('charge', 'trip', b.total_price_cents),
      ('host_earning', 'trip', b.car_owner_earnings_cents),
      ('platform_fee', 'service_fee', b.service_fee_cents),
      ('platform_fee', 'insurance', 0::bigint),
      ('platform_fee', 'host_fee', b.total_price_cents - b.car_owner_earnings_cents - b.service_fee_cents)
    ) AS p(kind, code, amount)
    WHERE b.payment_status = 'paid' AND b.paid_at IS NOT NULL
  `.execute(db);
  // A payout of the host's share for each completed trip marked paid (the day after it ended).
  await sql`
    UPDATE bookings SET payout_at = end_date + 1 + time '09:00', payout_reference = 'PO-' || booking_number
    WHERE payout_status = 'paid'
  `.execute(db);
  await sql`
    INSERT INTO ledger_entries (booking_id, renter_id, host_id, kind, code, amount_cents, moved_at, recorded_at, provider_reference)
    SELECT id, renter_id, owner_id, 'payout', 'trip', car_owner_earnings_cents, payout_at, payout_at, payout_reference
    FROM bookings WHERE payout_status = 'paid'
  `.execute(db);
}

async function addConversations(db: Db): Promise<void> {
  await sql`
    INSERT INTO booking_messages (booking_id, sender_id, body, created_at)
    SELECT b.id, m.sender, m.body, b.created_at + m.after
    FROM bookings b JOIN users r ON r.id = b.renter_id JOIN users h ON h.id = b.owner_id
    CROSS JOIN LATERAL (VALUES
      (b.owner_id, 'Hi ' || r.full_name || ', thanks for booking. I will meet you at the pickup at 10:00.', interval '1 hour'),
      (b.renter_id, 'Thanks ' || h.full_name || '! See you then. My number is ' || coalesce(r.phone_number, 'on my profile') || '.', interval '2 hours')
    ) AS m(sender, body, after)
  `.execute(db);
  await sql`
    INSERT INTO notifications (user_id, type, title, message, link, read, created_at)
    SELECT n.user_id, 'booking', n.title, n.message, '/bookings/' || b.booking_number, true, b.created_at + interval '5 minutes'
    FROM bookings b JOIN users r ON r.id = b.renter_id JOIN users h ON h.id = b.owner_id
    CROSS JOIN LATERAL (VALUES
      (b.owner_id, 'New booking request', r.full_name || ' (' || r.username || ') asked to book your car, booking ' || b.booking_number || '.'),
      (b.renter_id, 'Booking request sent', 'Your request went to ' || h.full_name || ', booking ' || b.booking_number || '.')
    ) AS n(user_id, title, message)
  `.execute(db);
  await sql`
    INSERT INTO mail_outbox (to_address, subject, text_body, html_body, transport, status, attempts, sent_at, created_at, kind)
    SELECT r.email, 'Booking request sent',
      'Hi ' || r.full_name || E',\n\nYour request went to ' || h.full_name || ' (' || h.email || '), booking ' || b.booking_number || '.',
      '<p>Hi ' || r.full_name || ',</p><p>Your request went to ' || h.full_name || ', booking ' || b.booking_number || '.</p>',
      'outbox', 'kept', 0, NULL, b.created_at + interval '5 minutes', 'transactional'
    FROM bookings b JOIN users r ON r.id = b.renter_id JOIN users h ON h.id = b.owner_id
  `.execute(db);
  await sql`
    INSERT INTO audit_log (admin_id, admin_username, action, target_type, target_id, target_label, before, after, reason, created_at)
    SELECT a.id, a.username, 'conversation.read_by_admin', 'booking', b.id::text, b.booking_number, NULL,
      jsonb_build_object('messages', 2, 'renter', r.username, 'host', h.username), 'Quality check of ' || r.full_name || '''s trip', b.created_at + interval '1 day'
    FROM bookings b JOIN users r ON r.id = b.renter_id JOIN users h ON h.id = b.owner_id
    CROSS JOIN (SELECT id, username FROM users WHERE username = ${ADMIN_USERNAME}) a
    WHERE hashtext(b.id::text || 'audit') % 3 = 0
  `.execute(db);
  // An administrator's edit of each member's profile (the erasure also looks for the values before).
  await sql`
    INSERT INTO audit_log (admin_id, admin_username, action, target_type, target_id, target_label, before, after, reason, created_at)
    SELECT a.id, a.username, 'user.updated', 'user', u.id::text, u.username, jsonb_build_object('phone_number', '+27 71 555 0199'),
      jsonb_build_object('phone_number', u.phone_number), NULL, now() - interval '30 days'
    FROM users u CROSS JOIN (SELECT id, username FROM users WHERE username = ${ADMIN_USERNAME}) a
    WHERE u.username IN (${MEMBER_USERNAME}, ${ADMIN_TARGET_USERNAME})
  `.execute(db);
}

/** Seeds `bookings` bookings (a multiple of 20) and everything beside them; `today` is the server's today. */
export async function seedScaleData(db: Db, bookings: number, today: string): Promise<ScaleSeedResult> {
  const started = Date.now();
  await seedBenchData(db, { cars: Math.ceil(bookings / BOOKINGS_PER_CAR), bookingsPerCar: BOOKINGS_PER_CAR, today });
  await addPeople(db);
  await addLedger(db);
  await addConversations(db);
  for (const table of ['users', 'bookings', 'ledger_entries', 'booking_messages', 'notifications', 'mail_outbox', 'audit_log']) {
    await sql`VACUUM ANALYZE ${sql.table(table)}`.execute(db);
  }
  const { rows } = await sql<Record<string, string>>`
    SELECT (SELECT count(*) FROM bookings) AS bookings, (SELECT count(*) FROM ledger_entries) AS ledger,
      (SELECT count(*) FROM booking_messages) AS messages, (SELECT count(*) FROM notifications) AS notifications,
      (SELECT count(*) FROM mail_outbox) AS mails, (SELECT count(*) FROM audit_log) AS audit
  `.execute(db);
  const r = rows[0]!;
  return {
    bookings: Number(r.bookings),
    ledgerRows: Number(r.ledger),
    messages: Number(r.messages),
    notifications: Number(r.notifications),
    mails: Number(r.mails),
    auditRows: Number(r.audit),
    seconds: (Date.now() - started) / 1000,
  };
}
