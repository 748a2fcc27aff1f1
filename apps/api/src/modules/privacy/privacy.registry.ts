// Every table that holds personal information, and how a person's rows are found in it (decision
// 049). The one list the data export (POPIA s. 23), the "what is held" counts and the completeness
// test (privacy-export.test.ts) read: a table with a column referencing a person, a booking or a car,
// or a column named like personal data (email, phone, address, ...) must be here or in EXCLUDED
// with its reason, or the test fails. So a new table cannot quietly be left out of the export.
//
// The export reads other modules' tables (read only, never writes): it is the one place that must see
// all of them, and a registry of plain SQL conditions keeps each table's rule on one line.
import { sql, type RawBuilder } from 'kysely';

/** A category of "what is held", as the Privacy and data page names it. */
export interface HeldCategoryInfo {
  label: string;
  what: string;
  source: string;
  purpose: string;
}

export const CATEGORIES = {
  account: {
    label: 'Account and profile',
    what: 'Username, name, email, phone, address, ID number, role, verification status, your acceptances of the terms and privacy notice, and your marketing choice.',
    source: 'You, when you registered and edited your profile; the verification status from our team.',
    purpose: 'To run your account, verify who rents and lists cars, and contact you about your bookings.',
  },
  documents: {
    label: 'Identity and verification documents',
    what: 'Your ID document, driver’s licence, proof of address and bank confirmation letter, and who viewed them.',
    source: 'You uploaded them.',
    purpose: 'To verify your identity and driving licence before you rent or list (fraud prevention, insurance).',
  },
  bank: {
    label: 'Bank details',
    what: 'Your bank account number and bank code.',
    source: 'You, on your profile.',
    purpose: 'To pay out a host’s earnings and refunds.',
  },
  cars: {
    label: 'Cars you list',
    what: 'Your listings: make, model, plate, location, photos and registration document.',
    source: 'You, when you listed a car.',
    purpose: 'To show your car to renters and check its registration.',
  },
  bookings: {
    label: 'Bookings and trips',
    what: 'Trips you booked and requests on your cars: dates, prices, check-in and check-out records, damage reports.',
    source: 'You and the other party of each booking.',
    purpose: 'To provide the rental, settle disputes and keep the records the law requires.',
  },
  payments: {
    label: 'Payments, payouts and invoices',
    what: 'Charges, refunds, payouts, the ledger of money moved for your bookings, and invoices.',
    source: 'Our payment provider and our ledger.',
    purpose: 'To take payments, pay hosts, refund renters, and keep financial records for 5 years (Tax Administration Act s. 29).',
  },
  messages: {
    label: 'Messages',
    what: 'Messages you sent in booking conversations, which you read, and reports you made.',
    source: 'You.',
    purpose: 'To let renters and hosts arrange trips safely, and to handle reports.',
  },
  reviews: {
    label: 'Reviews',
    what: 'Reviews you wrote and reviews hosts wrote about you.',
    source: 'You and the hosts you rented from.',
    purpose: 'To help renters and hosts trust each other.',
  },
  notifications: {
    label: 'Notifications and emails',
    what: 'Notifications in your bell and the emails we sent you.',
    source: 'Karoo, about your account and bookings.',
    purpose: 'To tell you what happened; emails are kept so delivery problems can be fixed.',
  },
  sign_in: {
    label: 'Sign-in history',
    what: 'Your sessions (when, from which address and browser), password resets and sign-in links.',
    source: 'Your browser, when you signed in.',
    purpose: 'To keep your account secure and let you see where you are signed in.',
  },
  privacy: {
    label: 'Privacy requests',
    what: 'Your data downloads, correction requests and consent history.',
    source: 'You, on this page.',
    purpose: 'To answer your requests and prove what you agreed to.',
  },
  admin_actions: {
    label: 'Administrator actions on your account',
    what: 'What our team did on your account (verification, changes), with the date.',
    source: 'Our audit log.',
    purpose: 'Accountability: every administrator action is recorded.',
  },
} as const satisfies Record<string, HeldCategoryInfo>;

export type CategoryKey = keyof typeof CATEGORIES;

// Columns that name the administrator who acted (audit_log.admin_id, *.resolved_by, decided_by,
// reversed_by, recorded_by) record Karoo's staff at work, not the staff member's own account: they
// are left out of the person's export, and an administrator's export holds their account, not the
// records of their work.
export interface PersonalTable {
  table: string;
  category: CategoryKey;
  /** The rows of the person with this id: an SQL condition over the table (aliased `t`). */
  rowsOf: (userId: string) => RawBuilder<unknown>;
  /** Columns left out of the export: secrets (hashes of passwords and tokens) and other people's details. */
  omit?: string[];
}

const id = (userId: string) => sql`${userId}::uuid`;

export const PERSONAL_TABLES: PersonalTable[] = [
  { table: 'users', category: 'account', rowsOf: (u) => sql`t.id = ${id(u)}`, omit: ['password_hash'] },
  { table: 'user_documents', category: 'documents', rowsOf: (u) => sql`t.user_id = ${id(u)}`, omit: ['storage_key'] },
  { table: 'cars', category: 'cars', rowsOf: (u) => sql`t.owner_id = ${id(u)}`, omit: ['registration_storage_key'] },
  { table: 'bookings', category: 'bookings', rowsOf: (u) => sql`t.renter_id = ${id(u)} OR t.owner_id = ${id(u)}` },
  { table: 'trip_records', category: 'bookings', rowsOf: (u) => sql`t.author_id = ${id(u)}` },
  { table: 'trip_disputes', category: 'bookings', rowsOf: (u) => sql`t.opened_by = ${id(u)}`, omit: ['resolved_by'] },
  {
    table: 'trip_photos',
    category: 'bookings',
    rowsOf: (u) => sql`t.record_id IN (SELECT r.id FROM trip_records r WHERE r.author_id = ${id(u)}) OR t.dispute_id IN (SELECT d.id FROM trip_disputes d WHERE d.opened_by = ${id(u)})`,
    omit: ['storage_key'],
  },
  // Trip charges (decision 065): claims on a trip of theirs, as host or renter, with their lines and the evidence's list.
  { table: 'trip_claims', category: 'bookings', rowsOf: (u) => sql`t.host_id = ${id(u)} OR t.renter_id = ${id(u)}`, omit: ['decided_by', 'card_reference'] },
  { table: 'trip_claim_items', category: 'bookings', rowsOf: (u) => sql`t.claim_id IN (SELECT c.id FROM trip_claims c WHERE c.host_id = ${id(u)} OR c.renter_id = ${id(u)})` },
  { table: 'trip_claim_evidence', category: 'bookings', rowsOf: (u) => sql`t.claim_id IN (SELECT c.id FROM trip_claims c WHERE c.host_id = ${id(u)} OR c.renter_id = ${id(u)})`, omit: ['storage_key'] },
  // Traffic fines on their cars or their trips (decision 066), and their CPA s. 17 requests (decision 067).
  { table: 'traffic_fines', category: 'bookings', rowsOf: (u) => sql`t.host_id = ${id(u)} OR t.renter_id = ${id(u)}`, omit: ['notice_storage_key', 'entered_by'] },
  // Changes asked of their trips, as renter or host (decision 081).
  { table: 'trip_changes', category: 'bookings', rowsOf: (u) => sql`t.renter_id = ${id(u)} OR t.host_id = ${id(u)}`, omit: ['answered_by', 'charge_reference'] },
  { table: 'cancellation_fee_waivers', category: 'payments', rowsOf: (u) => sql`t.renter_id = ${id(u)}`, omit: ['evidence_storage_key', 'decided_by'] },
  { table: 'car_holds', category: 'cars', rowsOf: (u) => sql`t.created_by = ${id(u)}` },
  { table: 'payments', category: 'payments', rowsOf: (u) => sql`t.booking_id IN (SELECT b.id FROM bookings b WHERE b.renter_id = ${id(u)})`, omit: ['access_code', 'authorization_url', 'authorization_code'] },
  { table: 'ledger_entries', category: 'payments', rowsOf: (u) => sql`t.renter_id = ${id(u)} OR t.host_id = ${id(u)}`, omit: ['actor_id'] },
  { table: 'invoices', category: 'payments', rowsOf: (u) => sql`t.owner_id = ${id(u)}` },
  {
    // The numbers of the receipts issued to the renter and the host invoices issued to the host (decision 056).
    table: 'issued_documents',
    category: 'payments',
    rowsOf: (u) =>
      sql`(t.kind = 'receipt' AND t.booking_id IN (SELECT b.id FROM bookings b WHERE b.renter_id = ${id(u)})) OR (t.kind = 'invoice' AND t.booking_id IN (SELECT b.id FROM bookings b WHERE b.owner_id = ${id(u)}))`,
  },
  {
    table: 'payout_reversals',
    category: 'payments',
    rowsOf: (u) => sql`t.booking_id IN (SELECT b.id FROM bookings b WHERE b.owner_id = ${id(u)})`,
    omit: ['reversed_by', 'reversed_by_username'],
  },
  { table: 'host_payout_accounts', category: 'payments', rowsOf: (u) => sql`t.host_id = ${id(u)}`, omit: ['recipient_code', 'paused_by'] },
  { table: 'payout_transfers', category: 'payments', rowsOf: (u) => sql`t.host_id = ${id(u)}`, omit: ['run_key', 'recipient_code', 'actor_id'] },
  { table: 'booking_messages', category: 'messages', rowsOf: (u) => sql`t.sender_id = ${id(u)}` },
  { table: 'booking_message_reads', category: 'messages', rowsOf: (u) => sql`t.user_id = ${id(u)}` },
  { table: 'booking_message_reports', category: 'messages', rowsOf: (u) => sql`t.reporter_id = ${id(u)}`, omit: ['resolved_by'] },
  { table: 'reviews', category: 'reviews', rowsOf: (u) => sql`t.reviewer_id = ${id(u)} OR t.subject_id = ${id(u)}` },
  { table: 'notifications', category: 'notifications', rowsOf: (u) => sql`t.user_id = ${id(u)}` },
  {
    table: 'mail_outbox',
    category: 'notifications',
    rowsOf: (u) => sql`t.user_id = ${id(u)} OR lower(t.to_address) = (SELECT lower(p.email) FROM users p WHERE p.id = ${id(u)})`,
    omit: ['headers', 'message_id', 'locked_until'],
  },
  { table: 'sessions', category: 'sign_in', rowsOf: (u) => sql`t.user_id = ${id(u)}`, omit: ['token_hash'] },
  { table: 'password_reset_tokens', category: 'sign_in', rowsOf: (u) => sql`t.user_id = ${id(u)}`, omit: ['token_hash'] },
  { table: 'sign_in_links', category: 'sign_in', rowsOf: (u) => sql`t.user_id = ${id(u)}`, omit: ['token_hash'] },
  { table: 'privacy_consents', category: 'privacy', rowsOf: (u) => sql`t.user_id = ${id(u)}`, omit: ['unsubscribe_token'] },
  { table: 'data_exports', category: 'privacy', rowsOf: (u) => sql`t.user_id = ${id(u)}`, omit: ['storage_key'] },
  { table: 'correction_requests', category: 'privacy', rowsOf: (u) => sql`t.user_id = ${id(u)}`, omit: ['decided_by'] },
  // Account deletion and breaches (migration 0027, decision 050).
  { table: 'account_deletions', category: 'privacy', rowsOf: (u) => sql`t.user_id = ${id(u)}` },
  { table: 'data_breach_notices', category: 'privacy', rowsOf: (u) => sql`t.user_id = ${id(u)}` },
  {
    table: 'audit_log',
    category: 'admin_actions',
    rowsOf: (u) => sql`t.target_type = 'user' AND t.target_id = ${u}`,
    omit: ['admin_id', 'admin_username'],
  },
];

/**
 * Tables that look personal to the completeness test but are not exported, each with the reason.
 * Their rows are either nobody's (platform settings) or short-lived security counters.
 */
export const EXCLUDED_TABLES: Record<string, string> = {
  settings: 'Platform settings: no person’s data.',
  document_serials: 'The last receipt and invoice number issued, one counter per kind: no person’s data.',
  browse_changes: 'A queue of car ids for the search index, emptied within seconds; the cars themselves are exported.',
  live_events: 'What an open live stream was told (a notice or a message of one of their bookings, by id only), kept a day; the notices and messages themselves are exported.',
  sandbox_transfers: 'The test payout provider’s own book of transfers, keyed by reference; the transfers are exported from payout_transfers.',
  sandbox_refunds: 'The test payment provider’s own book of refunds, keyed by charge reference; the refunds are exported from ledger_entries.',
  sign_in_throttle: 'Counters of failed sign-ins keyed by account or network address, kept at most a day to stop password guessing (security, POPIA s. 19).',
  reset_request_throttle: 'Times of password-reset mails per address, kept an hour to stop abuse (security, POPIA s. 19).',
  auth_throttle: 'The old sign-in counter table, no longer written (migration 0013).',
  data_breaches: 'Karoo’s record of a security compromise (POPIA s. 22): about the incident, not a person; each affected person’s notice is exported from data_breach_notices.',
};
