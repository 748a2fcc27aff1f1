// Where a person's name, username, email, phone number, ID number, bank account or address can be
// written, and how those rows are found from the person (issue 32; docs/decisions/061-erasure-and-finance-at-scale.md).
// The erasure's sweep (erasure.ts) reads and rewrites only these rows: its cost follows the
// person's own rows (their bookings, cars, conversations, the notices and mail of the people they
// dealt with, the audit rows about them), not the size of every table. Every text and JSON column
// of the schema is either listed here as one that can hold a mention (MENTION_TABLES) or as one
// that cannot, with the reason (NO_MENTION); erasure-registry.test.ts compares both lists with
// information_schema, so a column added later fails the test until someone says which it is (as
// privacy.registry.ts does for the export).
//
// Every lookup goes through an indexed column (migration 0035 adds the ones that were missing):
// a person's bookings by renter_id and owner_id, then each table by booking_id, car_id, user_id,
// the audit log by (target_type, target_id) and admin_id, mail by lower(to_address); notices and
// mail by their booking_id and, for rows written before migration 0043, by recipient (partial
// indexes on the rows whose booking is not known).
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import { throttleKeysOf } from '../users';

/** What can be reached from the person, read once per erasure. */
export interface PersonReach {
  userId: string;
  /** The bookings they rented or hosted. */
  bookingIds: string[];
  /** The cars they own or owned (deleted ones too). */
  carIds: string[];
  /** Damage reports on their bookings (the audit log names a resolved one by its id). */
  disputeIds: string[];
  /** Refund rows of their bookings (the audit log names a refund retried by its ledger row). */
  refundIds: string[];
  /** Security compromises they were told of. */
  breachIds: string[];
  /** Who may have been told about them: the person, the other party of each of their bookings, the administrators. */
  recipientIds: string[];
  /** Those people's email addresses and every address the person had, lower case. */
  recipientEmails: string[];
  /** Every address the person had, lower case. */
  ownEmails: string[];
  /** The keys the sign-in and mail throttles count the person under (users/auth.service.ts), and the prefixes of their (account, address) pairs. */
  throttleKeys: string[];
  throttlePairPrefixes: string[];
}

/** A table whose `columns` may mention a person, and the condition (over the table as `t`) that finds the rows that may mention this one. */
export interface MentionTable {
  table: string;
  columns: readonly string[];
  /** 'rewrite' (the default): each mention is replaced and the row kept; 'delete': the rows reached go (a counter of a deleted account guards nothing). */
  erase?: 'rewrite' | 'delete';
  /** Null when nothing of the table can be reached from this person (no bookings, say). */
  rowsOf: (reach: PersonReach) => RawBuilder<boolean> | null;
}

const uuids = (ids: readonly string[]) => sql`${ids}::uuid[]`;
const texts = (ids: readonly string[]) => sql`${ids}::text[]`;
/** OR of the conditions whose lists are not empty; null when all are. */
function anyOf(...parts: (RawBuilder<boolean> | false)[]): RawBuilder<boolean> | null {
  const present = parts.filter((p): p is RawBuilder<boolean> => p !== false);
  return present.length === 0 ? null : sql<boolean>`(${sql.join(present, sql` OR `)})`;
}
const inBookings = (column: string) => (r: PersonReach) => anyOf(r.bookingIds.length > 0 && sql<boolean>`${sql.ref(`t.${column}`)} = ANY(${uuids(r.bookingIds)})`);

export const MENTION_TABLES: readonly MentionTable[] = [
  {
    // What administrators did about them, their bookings, cars, payouts, refunds and reports; and,
    // for a former administrator, the rows that name them as the one who acted.
    table: 'audit_log',
    columns: ['admin_username', 'target_label', 'before', 'after', 'reason'],
    rowsOf: (r) =>
      anyOf(
        sql<boolean>`(t.target_type = 'user' AND t.target_id = ${r.userId})`,
        r.bookingIds.length + r.disputeIds.length > 0 && sql<boolean>`(t.target_type IN ('booking', 'payout') AND t.target_id = ANY(${texts([...r.bookingIds, ...r.disputeIds])}))`,
        r.carIds.length > 0 && sql<boolean>`(t.target_type = 'car' AND t.target_id = ANY(${texts(r.carIds)}))`,
        r.refundIds.length > 0 && sql<boolean>`(t.target_type = 'refund' AND t.target_id = ANY(${texts(r.refundIds)}))`,
        r.breachIds.length > 0 && sql<boolean>`(t.target_type = 'breach' AND t.target_id = ANY(${texts(r.breachIds)}))`,
        sql<boolean>`t.admin_id = ${r.userId}::uuid`,
      ),
  },
  { table: 'booking_messages', columns: ['body'], rowsOf: inBookings('booking_id') },
  {
    table: 'booking_message_reports',
    columns: ['reason', 'resolution_note'],
    // Reports are made by a party of the conversation, about a message of one of its bookings.
    rowsOf: (r) => anyOf(r.bookingIds.length > 0 && sql<boolean>`t.message_id IN (SELECT m.id FROM booking_messages m WHERE m.booking_id = ANY(${uuids(r.bookingIds)}))`),
  },
  { table: 'bookings', columns: ['special_requirements', 'host_response', 'condition_notes', 'pickup_option'], rowsOf: inBookings('id') },
  {
    table: 'car_holds',
    columns: ['note'],
    rowsOf: (r) =>
      anyOf(r.carIds.length > 0 && sql<boolean>`t.car_id = ANY(${uuids(r.carIds)})`, r.bookingIds.length > 0 && sql<boolean>`t.booking_id = ANY(${uuids(r.bookingIds)})`),
  },
  {
    table: 'cars',
    columns: ['description', 'pickup_location', 'pickup_options', 'rules', 'admin_notes', 'registration_verification_notes', 'registration_filename'],
    rowsOf: (r) => anyOf(r.carIds.length > 0 && sql<boolean>`t.id = ANY(${uuids(r.carIds)})`),
  },
  { table: 'data_breaches', columns: ['summary', 'measures', 'advice'], rowsOf: (r) => anyOf(r.breachIds.length > 0 && sql<boolean>`t.id = ANY(${uuids(r.breachIds)})`) },
  { table: 'ledger_entries', columns: ['reason', 'last_error'], rowsOf: inBookings('booking_id') },
  {
    // Mail to them (by the address it went to, or by their account), mail about their bookings (to
    // the other party or an administrator, migration 0043), and mail queued before 0043 to the
    // people who can have been told about them (its booking is not known).
    table: 'mail_outbox',
    columns: ['to_address', 'subject', 'text_body', 'html_body', 'headers', 'error', 'last_error'],
    rowsOf: (r) =>
      anyOf(
        r.ownEmails.length > 0 && sql<boolean>`lower(t.to_address) = ANY(${texts(r.ownEmails)})`,
        sql<boolean>`t.user_id = ${r.userId}::uuid`,
        r.bookingIds.length > 0 && sql<boolean>`t.booking_id = ANY(${uuids(r.bookingIds)})`,
        r.recipientEmails.length > 0 && sql<boolean>`(NOT t.reach_recorded AND lower(t.to_address) = ANY(${texts(r.recipientEmails)}))`,
        r.recipientIds.length > 0 && sql<boolean>`(NOT t.reach_recorded AND t.user_id = ANY(${uuids(r.recipientIds)}))`,
      ),
  },
  {
    // Their own notices, the notices about their bookings (to the other party or an administrator:
    // a notice that names another person is about a booking of the two, and says so since 0043),
    // and the notices written before 0043 to the people who can have been told about them.
    table: 'notifications',
    columns: ['title', 'message', 'link'],
    rowsOf: (r) =>
      anyOf(
        sql<boolean>`t.user_id = ${r.userId}::uuid`,
        r.bookingIds.length > 0 && sql<boolean>`t.booking_id = ANY(${uuids(r.bookingIds)})`,
        r.recipientIds.length > 0 && sql<boolean>`(NOT t.reach_recorded AND t.user_id = ANY(${uuids(r.recipientIds)}))`,
      ),
  },
  { table: 'payments', columns: ['message', 'refund_reason'], rowsOf: inBookings('booking_id') },
  {
    table: 'payout_reversals',
    columns: ['reason', 'reversed_by_username'],
    rowsOf: (r) => anyOf(r.bookingIds.length > 0 && sql<boolean>`t.booking_id = ANY(${uuids(r.bookingIds)})`, sql<boolean>`t.reversed_by = ${r.userId}::uuid`),
  },
  {
    // Reviews written by them, about them, of their cars, or of their trips.
    table: 'reviews',
    columns: ['comment'],
    rowsOf: (r) =>
      anyOf(
        sql<boolean>`t.reviewer_id = ${r.userId}::uuid`,
        sql<boolean>`t.subject_id = ${r.userId}::uuid`,
        r.carIds.length > 0 && sql<boolean>`t.car_id = ANY(${uuids(r.carIds)})`,
        r.bookingIds.length > 0 && sql<boolean>`t.booking_id = ANY(${uuids(r.bookingIds)})`,
      ),
  },
  { table: 'trip_disputes', columns: ['description', 'resolution_note'], rowsOf: inBookings('booking_id') },
  { table: 'trip_records', columns: ['note'], rowsOf: inBookings('booking_id') },
  // Trip charges (decision 065): both sides' statements and the admin's reason, by booking; the lines' notes by their claim's booking.
  { table: 'trip_claims', columns: ['host_statement', 'renter_statement', 'decision_reason', 'payment_error'], rowsOf: inBookings('booking_id') },
  {
    table: 'trip_claim_items',
    columns: ['note'],
    rowsOf: (r) => anyOf(r.bookingIds.length > 0 && sql<boolean>`t.claim_id IN (SELECT c.id FROM trip_claims c WHERE c.booking_id = ANY(${uuids(r.bookingIds)}))`),
  },
  // Traffic fines (decision 066): the place and the notes of the state (a dispute's words), by the trip or the car.
  {
    table: 'traffic_fines',
    columns: ['place', 'status_note'],
    rowsOf: (r) => anyOf(r.bookingIds.length > 0 && sql<boolean>`t.booking_id = ANY(${uuids(r.bookingIds)})`, r.carIds.length > 0 && sql<boolean>`t.car_id = ANY(${uuids(r.carIds)})`),
  },
  // CPA s. 17 requests (decision 067): the renter's statement and the admin's reason, by booking.
  { table: 'cancellation_fee_waivers', columns: ['statement', 'decision_reason'], rowsOf: inBookings('booking_id') },
  // Trip changes (decision 081): the renter's message, the host's note and why one failed, by booking.
  { table: 'trip_changes', columns: ['message', 'note', 'failure', 'summary'], rowsOf: inBookings('booking_id') },
  // Counters keyed by the account or by what was typed (users/auth.service.ts), by their primary
  // key; a pair's key starts with the account (no index serves a prefix there, and the table holds
  // at most a day of failed sign-ins).
  {
    table: 'sign_in_throttle',
    columns: ['key'],
    erase: 'delete',
    rowsOf: (r) =>
      anyOf(
        sql<boolean>`t.key = ANY(${texts(r.throttleKeys)})`,
        r.throttlePairPrefixes.length > 0 && sql<boolean>`left(t.key, strpos(t.key, '|')) = ANY(${texts(r.throttlePairPrefixes)})`,
      ),
  },
  { table: 'reset_request_throttle', columns: ['key'], erase: 'delete', rowsOf: (r) => anyOf(sql<boolean>`t.key = ANY(${texts(r.throttleKeys)})`) },
];

/** Columns of the same reason, as 'table.column' keys. */
const because = (table: string, columns: readonly string[], why: string) => Object.fromEntries(columns.map((c) => [`${table}.${c}`, why]));

const CODE = 'A value from a fixed list the code writes (a status, a kind, a code), never typed by a person.';
const SECRET = 'A hash of a secret or a provider’s token: no name, email or number of a person.';
const OWN_ROWS = 'The person’s own rows of this table are deleted by the erasure itself (account-deletion.ts); other people’s rows hold their own details.';

/** Every other text and JSON column, and why it cannot hold another person's identifying details (or is erased by name instead). */
export const NO_MENTION: Readonly<Record<string, string>> = {
  ...because('users', ['username', 'email', 'full_name', 'phone_number', 'address', 'id_number', 'driver_licence_number', 'bank_account_number', 'bank_code', 'verification_notes'], 'The person’s own row is anonymised field by field (eraseAccount); another member’s row holds that member’s details.'),
  ...because('users', ['password_hash'], SECRET),
  ...because('users', ['role', 'user_type', 'verification_status'], CODE),
  ...because('account_deletions', ['role', 'erased', 'kept'], 'The register of deletions: the role, and the fixed lists of what was erased and kept.'),
  ...because('audit_log', ['action', 'target_type', 'target_id'], 'The event’s name, the kind of object and its id.'),
  ...because('bookings', ['booking_number', 'start_time', 'end_time', 'status', 'payment_status', 'payment_provider', 'payment_reference', 'payout_status', 'payout_reference', 'cancel_cause'], CODE),
  ...because('bookings', ['insurance_option'], 'The cover chosen, copied from the car’s insurance options (names, rates, excess), which a host types as plan names.'),
  ...because('cars', ['car_username', 'car_make', 'car_model', 'car_color', 'car_type', 'car_plate_number'], 'The car’s own identity (make, model, colour, plate; the username is built from make and model).'),
  ...because('cars', ['status', 'verification_status', 'registration_mime'], CODE),
  ...because('cars', ['images', 'photo_variants', 'registration_storage_key'], 'Storage paths the code generates.'),
  ...because('cars', ['specifications', 'features', 'safety', 'insurance_options'], 'Catalogue values (transmission, fuel, features from fixed lists) and cover plans.'),
  ...because('correction_requests', ['field', 'current_value', 'proposed_value', 'reason', 'status', 'decision_note'], OWN_ROWS),
  ...because('data_breaches', ['data_categories', 'scope'], CODE),
  ...because('data_exports', ['status', 'storage_key'], 'A status and a generated storage path (the person’s exports are deleted with their files).'),
  ...because('issued_documents', ['kind', 'number'], 'The kind of document (receipt, host invoice) and the serial number Karoo gives it (decision 056).'),
  ...because('issued_documents', ['content_hash'], 'A hash of the document’s amounts and lines, to know whether it changed: no name, email or number of a person.'),
  ...because('document_serials', ['kind'], CODE),
  ...because('invoices', ['invoice_number', 'line_items'], 'A generated number and the lines the code writes (rental, service fee, insurance, pickup fee).'),
  ...because('ledger_entries', ['kind', 'code', 'state'], CODE),
  ...because('ledger_entries', ['charge_reference', 'provider_reference'], 'References generated by Karoo and the payment provider.'),
  ...because('mail_outbox', ['transport', 'status', 'kind'], CODE),
  ...because('mail_outbox', ['message_id'], 'A generated Message-ID.'),
  ...because('notifications', ['type'], CODE),
  ...because('password_reset_tokens', ['token_hash'], SECRET),
  ...because('payments', ['reference', 'provider', 'currency', 'status', 'refund_status', 'refund_reason_code'], CODE),
  ...because('payments', ['access_code', 'authorization_url'], SECRET),
  ...because('payout_reversals', ['payout_reference'], 'The payout’s reference from the bank.'),
  ...because('host_payout_accounts', ['bank_code', 'bank_name', 'account_number', 'account_name', 'recipient_code', 'paused_reason'], OWN_ROWS),
  ...because('host_payout_accounts', ['schedule'], CODE),
  ...because('payout_transfers', ['run_key', 'reference', 'transfer_code', 'recipient_code'], 'Keys and references generated by Karoo and the payout provider.'),
  ...because('payout_transfers', ['state', 'bank_name', 'account_number_last4', 'bookings'], 'A state, the host’s own bank’s name and last four digits, and the booking numbers it paid: no other person’s details.'),
  ...because('payout_transfers', ['failure_reason'], 'The provider’s or Karoo’s words for why a transfer failed: no person’s details.'),
  ...because('sandbox_transfers', ['reference', 'transfer_code', 'recipient_code', 'status'], 'The test payout provider’s references.'),
  ...because('privacy_consents', ['kind', 'version', 'wording', 'source'], 'The notice’s kind, version and wording as shown to everyone, and where it was accepted.'),
  ...because('privacy_consents', ['unsubscribe_token'], SECRET),
  ...because('reviews', ['direction'], CODE),
  ...because('sandbox_refunds', ['id', 'reference'], 'The test payment provider’s references.'),
  ...because('sessions', ['token_hash'], SECRET),
  ...because('sessions', ['user_agent', 'ip'], OWN_ROWS),
  ...because('settings', ['data'], 'Platform settings: no person’s data.'),
  ...because('sign_in_links', ['token_hash'], SECRET),
  ...because('trip_disputes', ['kind', 'status'], CODE),
  ...because('trip_photos', ['slot', 'storage_key', 'mime_type'], 'A slot name, a generated storage path and a file type.'),
  ...because('trip_records', ['stage', 'party'], CODE),
  ...because('trip_claims', ['status', 'renter_answer', 'payment_state'], CODE),
  ...because('trip_claims', ['card_reference'], 'A payment reference the code generates (KAROO-<booking>-CLAIM-…).'),
  ...because('trip_claim_items', ['kind'], CODE),
  ...because('trip_claim_items', ['detail'], 'The working of a computed charge the code writes (eighths, litres, kilometres, hours, rates).'),
  ...because('trip_claim_evidence', ['party', 'storage_key', 'mime_type'], 'A party, a generated storage path and a file type.'),
  ...because('payments', ['authorization_code'], SECRET),
  ...because('traffic_fines', ['status'], CODE),
  ...because('traffic_fines', ['plate', 'notice_number'], 'The car’s plate and the notice number the issuing authority prints.'),
  ...because('traffic_fines', ['notice_storage_key', 'notice_mime'], 'A generated storage path and a file type.'),
  ...because('cancellation_fee_waivers', ['ground', 'person', 'status'], CODE),
  ...because('trip_changes', ['status'], CODE),
  ...because('live_events', ['kind'], CODE),
  ...because('trip_changes', ['from_start_time', 'from_end_time', 'to_start_time', 'to_end_time'], 'Times of day (HH:mm).'),
  ...because('trip_changes', ['charge_reference'], 'A payment reference the code generates (KAROO-<booking>-CHANGE-…).'),
  ...because('cancellation_fee_waivers', ['evidence_storage_key', 'evidence_mime'], 'A generated storage path and a file type.'),
  ...because('user_documents', ['type', 'mime_type', 'erasure_reason'], CODE),
  ...because('user_documents', ['storage_key', 'original_name'], OWN_ROWS),
};

/** The person's reach, read through indexed columns: their bookings first, then what hangs on them. */
export async function reachOf(db: Db, userId: string, identities: { emails: readonly string[]; usernames: readonly string[] }): Promise<PersonReach> {
  const bookings = await db.selectFrom('bookings').select(['id', 'renter_id', 'owner_id']).where((eb) => eb.or([eb('renter_id', '=', userId), eb('owner_id', '=', userId)])).execute();
  const bookingIds = bookings.map((b) => b.id);
  const anyBooking = bookingIds.length > 0;
  const [cars, disputes, refunds, breaches, admins] = await Promise.all([
    db.selectFrom('cars').select('id').where('owner_id', '=', userId).execute(),
    anyBooking ? db.selectFrom('trip_disputes').select('id').where(sql<boolean>`booking_id = ANY(${uuids(bookingIds)})`).execute() : [],
    anyBooking ? db.selectFrom('ledger_entries').select('id').where(sql<boolean>`booking_id = ANY(${uuids(bookingIds)})`).where('kind', '=', 'refund').execute() : [],
    db.selectFrom('data_breach_notices').select('breach_id').where('user_id', '=', userId).execute(),
    db.selectFrom('users').select('id').where('role', '=', 'admin').execute(),
  ]);
  const recipientIds = [...new Set([userId, ...bookings.flatMap((b) => [b.renter_id, b.owner_id]), ...admins.map((a) => a.id)])];
  const others = await db.selectFrom('users').select('email').where(sql<boolean>`id = ANY(${uuids(recipientIds)})`).where('id', '<>', userId).execute();
  const lower = (emails: readonly string[]) => [...new Set(emails.map((e) => e.trim().toLowerCase()).filter(Boolean))];
  const ownEmails = lower(identities.emails);
  const recipientEmails = lower([...identities.emails, ...others.map((o) => o.email)]);
  const throttle = throttleKeysOf(userId, [...identities.usernames, ...identities.emails]);
  return {
    userId,
    bookingIds,
    carIds: cars.map((c) => c.id),
    disputeIds: disputes.map((d) => d.id),
    refundIds: refunds.map((r) => r.id),
    breachIds: breaches.map((b) => b.breach_id),
    recipientIds,
    recipientEmails,
    ownEmails,
    throttleKeys: throttle.keys,
    throttlePairPrefixes: throttle.pairPrefixes,
  };
}
