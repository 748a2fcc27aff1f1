// Table types for Kysely. Money is integer cents; timestamps are timestamptz.
// An insert names only what it sets: a nullable column (`T | null`) is optional on insert (Kysely's
// Insertable) and the database stores NULL, and a NOT NULL column with an SQL default is
// `Generated` (or a ColumnType whose insert type admits undefined), so the default applies.
import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface UsersTable {
  id: Generated<string>;
  username: string;
  email: string;
  password_hash: string;
  full_name: string;
  phone_number: string | null;
  address: string | null;
  id_number: string | null;
  /** The driving licence number an AARTO 07 nomination needs (migration 0039). */
  driver_licence_number: ColumnType<string | null, string | null | undefined, string | null>;
  /** The licence's first issue date (YYYY-MM-DD, migration 0041): the years held a car's instant booking may ask. */
  driver_licence_issued_on: ColumnType<string | null, string | null | undefined, string | null>;
  bank_account_number: string | null;
  bank_code: string | null;
  role: Generated<'admin' | 'host' | 'customer'>;
  user_type: string | null;
  verification_status: Generated<'pending_upload' | 'pending_verification' | 'verified' | 'rejected'>;
  verification_notes: string | null;
  verified_at: Date | null;
  host_since: Date | null;
  rating: number | null;
  total_trips: Generated<number>;
  terms_accepted_at: Date | null;
  privacy_accepted_at: Date | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  deleted_at: Date | null;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  created_at: CreatedAt;
  last_used_at: Timestamp;
  revoked_at: Date | null;
  user_agent: string | null;
  ip: string | null;
}

export interface PasswordResetTokensTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
}

/** One-time sign-in links (migration 0019): the token's hash, its 15 minutes, and when it was used. */
export interface SignInLinksTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
}

export interface UserDocumentsTable {
  id: Generated<string>;
  user_id: string;
  type: 'id_document' | 'driver_license' | 'proof_of_address' | 'bank_confirmation_letter';
  storage_key: string;
  original_name: string;
  mime_type: string;
  size_bytes: number;
  uploaded_at: Timestamp;
}

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  type: string;
  title: string;
  message: string;
  link: string | null;
  read: Generated<boolean>;
  created_at: CreatedAt;
  /** Write order, for notifications that share an instant. */
  seq: GeneratedAlways<string>;
  /** The booking the notice is about (migration 0043): the erasure of either party finds it by this. */
  booking_id: string | null;
  /** True when the writer recorded what the notice is about (notify() does); false on rows written before 0043, found by recipient by the erasure. */
  reach_recorded: Generated<boolean>;
}

/** What a person's open stream is told (migration 0044): a notice, a message of theirs, their message read. */
export interface LiveEventsTable {
  id: GeneratedAlways<string>;
  user_id: string;
  kind: LiveEventKind;
  booking_id: string | null;
  created_at: Date;
}

export type LiveEventKind = 'notification' | 'message' | 'message_read';

export interface MailOutboxTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  transport: 'smtp' | 'outbox';
  sent_at: Date | null;
  /** The last error, as before 0015; kept in step with last_error. */
  error: string | null;
  created_at: CreatedAt;
  /** pending: the worker will send it; sent: SMTP took it; kept: held in the outbox (no SMTP_URL); failed: gave up. */
  status: Generated<MailStatus>;
  /** Sending attempts so far (a claim counts as one). */
  attempts: Generated<number>;
  /** When a pending message may be tried (again). */
  next_attempt_at: Date | null;
  /**
   * Set while an attempt is sending it (until that attempt's timeout), cleared when the attempt
   * records its outcome: still set when the next attempt starts, the earlier one ended unrecorded.
   */
  locked_until: Date | null;
  last_error: string | null;
  /** The Message-ID header every attempt uses, so a duplicate is recognisable. */
  message_id: string | null;
  /** Marketing is sent only to a person whose latest marketing choice is yes (migration 0026, decision 049). */
  kind: Generated<MailKind>;
  /** The person the mail is for, when it is one of Karoo's users (marketing always is). */
  user_id: string | null;
  /** Extra headers (a marketing mail's List-Unsubscribe and List-Unsubscribe-Post). */
  headers: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  /** The booking the mail is about (migration 0043), as its notification. */
  booking_id: string | null;
  /** True when the writer recorded what the mail is about (every mail of this code); false on mail queued before 0043 (found by recipient by the erasure). */
  reach_recorded: Generated<boolean>;
}

/** Transactional mail (bookings, payments, accounts) is not marketing: it needs no opt-in. */
export type MailKind = 'transactional' | 'marketing';

export type MailStatus = 'pending' | 'sent' | 'kept' | 'failed';

/** Failed sign-ins of one key (an account and address pair, an address, an account) and its wait. */
export interface SignInThrottleTable {
  key: string;
  /** Failures in the current window (an attempt counts from the moment it is checked). */
  failures: number;
  window_started_at: Date;
  last_failed_at: Date;
  /** Attempts before this moment are refused (429); at or before the last failure: no wait. */
  wait_until: Date;
  /** The wait before the last counted attempt, restored when that attempt was a success. */
  prev_wait_until: Date;
}

/** When reset mails were granted to one key (an email, an address) within the last hour. */
export interface ResetRequestThrottleTable {
  key: string;
  granted_at: Date[];
}

/** A jsonb column: read as T, written as a JSON string (node-postgres would turn arrays into SQL arrays). */
type Json<T> = ColumnType<T, string, string>;
type JsonDefault<T> = ColumnType<T, string | undefined, string>;

export interface SettingsTable {
  id: Generated<number>;
  data: Json<Record<string, unknown>>;
  updated_at: Timestamp;
  updated_by: string | null;
}

/** A pickup option as stored: money in integer cents like every amount (migration 0008); rand at the API edge (cars.mapper). */
export interface StoredPickupOption {
  id: string;
  name: string;
  address: string;
  additional_fee_cents: number;
  type: 'standard' | 'airport' | 'premium' | 'business' | 'mall';
  available_times: string[];
}

/** An insurance plan as stored, money in cents. */
export interface StoredInsuranceOption {
  id: string;
  name: string;
  description: string;
  daily_rate_cents: number;
  excess_amount_cents: number;
  coverage: string[];
  included: boolean;
  popular: boolean;
  recommended: boolean;
}

/** A converted photo's full size and the [width, height] of each variant, narrowest first; or why it could not be converted. */
export type StoredPhotoSizes = { width: number; height: number; variants: [number, number][] } | { error: string };
export type StoredPhotoVariants = Record<string, StoredPhotoSizes>;

export interface StoredSpecifications {
  transmission?: string;
  fuelType?: string;
  seats?: number;
  doors?: number;
  engine?: string;
  fuelConsumption?: string;
}

/** What an owner or admin sets; "rented" is computed from the bookings, never stored (migration 0007). */
export type CarStatusValue = 'available' | 'offline' | 'maintenance';
export type CarVerificationValue = 'pending_verification' | 'verified' | 'rejected';

export interface CarsTable {
  id: Generated<string>;
  car_username: string;
  owner_id: string;
  car_make: string;
  car_model: string;
  car_year: number;
  car_color: string;
  car_type: string;
  car_plate_number: string;
  car_value_cents: number;
  car_rent_price_cents: number;
  car_odometer: Generated<number>;
  /** The host's deposit in cents; null: the default for the car's value (migration 0036). */
  deposit_cents: ColumnType<number | null, number | null | undefined, number | null>;
  tank_litres: ColumnType<number | null, number | null | undefined, number | null>;
  /** Kilometres a day included; null: unlimited. */
  distance_allowance_km: ColumnType<number | null, number | null | undefined, number | null>;
  extra_km_rate_cents: Generated<number>;
  description: Generated<string>;
  /** Public URLs of the photos, the first is the main one. */
  images: JsonDefault<string[]>;
  /** What was made of each photo, by its storage key (migration 0025, decision 045). */
  photo_variants: JsonDefault<StoredPhotoVariants>;
  pickup_location: string;
  latitude: number | null;
  longitude: number | null;
  status: ColumnType<CarStatusValue, CarStatusValue | undefined, CarStatusValue>;
  verification_status: ColumnType<CarVerificationValue, CarVerificationValue | undefined, CarVerificationValue>;
  admin_notes: string | null;
  specifications: JsonDefault<StoredSpecifications>;
  features: JsonDefault<string[]>;
  safety: JsonDefault<string[]>;
  rules: JsonDefault<string[]>;
  pickup_options: JsonDefault<StoredPickupOption[]>;
  insurance_options: JsonDefault<StoredInsuranceOption[]>;
  /** Trip rules and long-trip discounts (migration 0030, decision 048). */
  min_trip_days: Generated<number>;
  max_trip_days: number | null;
  min_trip_hours: Generated<number>;
  max_trip_hours: Generated<number>;
  advance_notice_hours: Generated<number>;
  booking_window_months: number | null;
  weekly_discount_percent: Generated<number>;
  monthly_discount_percent: Generated<number>;
  registration_storage_key: string | null;
  registration_filename: string | null;
  registration_mime: string | null;
  registration_uploaded_at: Date | null;
  registration_verified: boolean | null;
  registration_verification_notes: string | null;
  rating: number | null;
  total_reviews: Generated<number>;
  created_at: CreatedAt;
  updated_at: Timestamp;
  deleted_at: Date | null;
  /** Generated by the database (browse filters). */
  car_words: ColumnType<string, never, never>;
  city_words: ColumnType<string, never, never>;
  type_key: ColumnType<string, never, never>;
  city_key: ColumnType<string, never, never>;
  pickup_types: ColumnType<string[], never, never>;
  transmission_key: ColumnType<string | null, never, never>;
  fuel_key: ColumnType<string | null, never, never>;
  /** Minutes kept free after every trip (migration 0028), 0 to 1440. */
  buffer_minutes: Generated<number>;
  /** Instant booking, the host's choice, and its requirements (migration 0041, decision 078). */
  instant_booking: Generated<boolean>;
  instant_min_trips: Generated<number>;
  /** Tenths of a star: 45 is 4.5; null: no rating asked. */
  instant_min_rating_tenths: ColumnType<number | null, number | null | undefined, number | null>;
  instant_min_licence_years: ColumnType<number | null, number | null | undefined, number | null>;
}

export type BookingStatusValue = 'pending' | 'confirmed' | 'active' | 'completed' | 'cancelled' | 'rejected';

/** The pickup option and insurance plan as chosen, copied onto the booking (the car's may change later). */
export type BookingPickupSnapshot = StoredPickupOption;
export type BookingInsuranceSnapshot = StoredInsuranceOption;

export type PayoutStatusValue = 'pending' | 'processing' | 'paid';

export interface PaymentsTable {
  reference: string;
  booking_id: string;
  provider: 'paystack' | 'sandbox';
  amount_cents: number;
  currency: Generated<string>;
  status: ColumnType<'initialized' | 'success' | 'failed', 'initialized' | 'success' | 'failed' | undefined, 'initialized' | 'success' | 'failed'>;
  message: string | null;
  /** The provider's checkout of this reference (Paystack), answered again to a second initialise. */
  access_code: ColumnType<string | null, string | null | undefined, string | null>;
  authorization_url: ColumnType<string | null, string | null | undefined, string | null>;
  /** A successful charge that could not stay on its booking: 'pending' marks it not kept (its refund is a ledger row, migration 0020). */
  refund_status: ColumnType<PaymentRefundStatus | null, PaymentRefundStatus | null | undefined, PaymentRefundStatus | null>;
  refund_amount_cents: ColumnType<number | null, number | null | undefined, number | null>;
  refund_reason: ColumnType<string | null, string | null | undefined, string | null>;
  refund_requested_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** Why the charge is refunded, as a code: what the service branches on (refund_reason is its sentence). */
  refund_reason_code: ColumnType<RefundReasonCode | null, RefundReasonCode | null | undefined, RefundReasonCode | null>;
  /** The card's reusable authorisation of a successful charge (migration 0036). */
  authorization_code: ColumnType<string | null, string | null | undefined, string | null>;
  /** The claim a payment link pays (migration 0040; decision 073); null for a trip's own checkout. */
  claim_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

export type PaymentRefundStatus = 'pending' | 'refunded';
/** Why a successful charge could not stay on its booking (migration 0018). */
export type RefundReasonCode = 'already_paid' | 'booking_expired' | 'booking_cancelled' | 'booking_not_payable' | 'wrong_amount' | 'wrong_currency';
/** Why a booking was cancelled (events/domain-events CancelCause); null for cancellations before migration 0018. */
export type CancelCauseValue = 'renter' | 'admin' | 'expired' | 'car_removed' | 'renter_closed' | 'host' | 'no_show';

/** What moved (migration 0020; docs/decisions/039-one-ledger.md). */
export type LedgerKind = 'charge' | 'refund' | 'host_earning' | 'platform_fee' | 'host_penalty' | 'payout' | 'payout_reversal' | 'deposit' | 'deposit_applied';
export type LedgerState = 'pending' | 'succeeded' | 'failed';

/**
 * One money movement of a booking, append-only (the database refuses any change but a pending row
 * settling once). Amounts are positive except the shares of a charge (host_earning, platform_fee),
 * which a cancellation corrects with negative rows.
 */
export interface LedgerEntriesTable {
  id: Generated<string>;
  seq: GeneratedAlways<string>;
  booking_id: string;
  renter_id: string;
  host_id: string;
  kind: LedgerKind;
  /** What the row is for within its kind: 'trip', 'service_fee', 'insurance', 'host_fee', 'cancellation_fee', 'trip_cancelled', a refund's reason code, a penalty's timing... */
  code: string;
  /** Cents (bigint, read as a number: db/connection.ts). */
  amount_cents: ColumnType<number, number, never>;
  state: ColumnType<LedgerState, LedgerState | undefined, LedgerState>;
  /** When the money moved (null until a pending row succeeds). */
  moved_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  recorded_at: ColumnType<Date, Date, never>;
  /** The charge (payments.reference) a charge or refund belongs to. */
  charge_reference: ColumnType<string | null, string | null | undefined, never>;
  /** The provider's id of a refund, or the bank reference of a payout. */
  provider_reference: ColumnType<string | null, string | null | undefined, string | null>;
  reason: ColumnType<string | null, string | null | undefined, never>;
  /** The person who caused it (an administrator's payout or refund, a host's cancellation). */
  actor_id: ColumnType<string | null, string | null | undefined, never>;
  last_error: ColumnType<string | null, string | null | undefined, string | null>;
  /** Asking the provider for a pending refund (bookkeeping, not money). */
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  locked_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface SandboxRefundsTable {
  id: string;
  reference: string;
  amount_cents: ColumnType<number, number, never>;
  created_at: Date;
}

/** A paid payout taken back by an administrator, with why (earnings module; migration 0018). */
export interface PayoutReversalsTable {
  id: Generated<string>;
  booking_id: string;
  /** The host earnings that had been marked paid. */
  amount_cents: number;
  payout_reference: string | null;
  paid_at: Date | null;
  reason: string;
  reversed_by: string;
  reversed_by_username: string;
  reversed_at: Date;
}

export interface AuditLogTable {
  id: Generated<string>;
  seq: GeneratedAlways<string>;
  admin_id: string;
  admin_username: string;
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  before: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  after: ColumnType<Record<string, unknown> | null, string | null, string | null>;
  reason: string | null;
  created_at: CreatedAt;
}

export interface InvoiceLine {
  description: string;
  amount_cents: number;
}

export interface InvoicesTable {
  id: Generated<string>;
  invoice_number: string;
  booking_id: string;
  car_id: string;
  owner_id: string;
  total_amount_cents: number;
  car_owner_earnings_cents: number;
  app_fee_cents: number;
  line_items: ColumnType<InvoiceLine[], string, string>;
  issued_at: CreatedAt;
}

/** The last serial number issued of each kind of document (receipts module, migration 0033). */
export interface DocumentSerialsTable {
  kind: 'receipt' | 'invoice';
  last_serial: number;
}

/** A receipt or host invoice issued, with its number for life (receipts module, migration 0033). */
export interface IssuedDocumentsTable {
  id: Generated<string>;
  kind: 'receipt' | 'invoice';
  serial: number;
  number: string;
  booking_id: string;
  content_hash: string;
  replaces_id: string | null;
  issued_at: Date;
}

export interface BookingsTable {
  id: Generated<string>;
  booking_number: string;
  car_id: string;
  renter_id: string;
  owner_id: string;
  /** 'YYYY-MM-DD' (DATE is parsed as a string). */
  start_date: string;
  end_date: string;
  start_time: string;
  end_time: string;
  is_hourly_booking: Generated<boolean>;
  duration_days: number;
  duration_hours: number | null;
  status: Generated<BookingStatusValue>;
  /** The rental after `discount_cents` (decision 048). */
  subtotal_cents: number;
  /** The car's weekly or monthly discount taken off the rental, and its per cent (migration 0030). */
  discount_cents: Generated<number>;
  discount_rate: Generated<number>;
  service_fee_cents: number;
  insurance_fee_cents: Generated<number>;
  pickup_fee_cents: Generated<number>;
  total_price_cents: number;
  /** The deposit taken with the trip's charge, as it stood when booked (migration 0036). */
  deposit_cents: Generated<number>;
  distance_allowance_km: ColumnType<number | null, number | null | undefined, number | null>;
  extra_km_rate_cents: Generated<number>;
  service_fee_rate: number;
  commission_rate: number;
  car_owner_earnings_cents: number;
  app_fee_cents: number;
  pickup_option: ColumnType<BookingPickupSnapshot | null, string | null, string | null>;
  insurance_option: ColumnType<BookingInsuranceSnapshot | null, string | null, string | null>;
  special_requirements: string | null;
  host_response: string | null;
  host_response_date: Date | null;
  payment_status: ColumnType<'unpaid' | 'paid', 'unpaid' | 'paid' | undefined, 'unpaid' | 'paid'>;
  payment_provider: string | null;
  payment_reference: string | null;
  paid_at: Date | null;
  confirmed_at: Date | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
  actual_return_date: Date | null;
  condition_notes: string | null;
  odometer_reading: number | null;
  payout_status: ColumnType<PayoutStatusValue, PayoutStatusValue | undefined, PayoutStatusValue>;
  payout_reference: string | null;
  payout_at: Date | null;
  /** Why it was cancelled (set with status 'cancelled'). */
  cancel_cause: ColumnType<CancelCauseValue | null, CancelCauseValue | null | undefined, CancelCauseValue | null>;
  /** When the booking expires if nobody acts (pending, or confirmed and unpaid); null otherwise. */
  expires_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** When the host was reminded of the unanswered request (migration 0045). */
  host_reminded_at: Date | null;
  /** When the renter was reminded of the pickup, the evening before (migration 0045). */
  pickup_reminded_at: Date | null;
  /** The car's buffer when the booking was made (migration 0028; set by the database). */
  buffer_minutes: ColumnType<number, never, never>;
  /** The time range the booking holds its car, buffer included (tstzrange text; set by the database). */
  held: ColumnType<string, never, never>;
  created_at: CreatedAt;
  updated_at: Timestamp;
}

/** A car's holds (migration 0028): one row per holding booking (kept by a trigger) and per block a host set. */
export interface CarHoldsTable {
  id: Generated<string>;
  car_id: string;
  /** tstzrange, '[)'. */
  during: string;
  booking_id: string | null;
  note: string | null;
  created_by: string | null;
  created_at: CreatedAt;
}

export interface ReviewsTable {
  id: Generated<string>;
  booking_id: string | null;
  car_id: string;
  reviewer_id: string;
  rating: number;
  comment: string;
  created_at: CreatedAt;
  updated_at: Timestamp;
  /** 'car': the renter reviews the car; 'renter': the host reviews the renter (migration 0023). */
  direction: Generated<ReviewDirection>;
  /** The renter reviewed (direction 'renter'); null for a car's review. */
  subject_id: string | null;
  /** Hidden until then, or until the other side's review is in; null = shown. */
  hidden_until: Date | null;
}

export type ReviewDirection = 'car' | 'renter';

export interface BookingMessagesTable {
  id: Generated<string>;
  /** Order of the conversation; read markers point at it. */
  seq: GeneratedAlways<string>;
  booking_id: string;
  sender_id: string;
  body: string;
  created_at: CreatedAt;
}

export interface BookingMessageReadsTable {
  booking_id: string;
  user_id: string;
  read_seq: ColumnType<string, string | number | undefined, string | number>;
  emailed_at: Date | null;
}

export interface BookingMessageReportsTable {
  id: Generated<string>;
  message_id: string;
  reporter_id: string;
  reason: string;
  created_at: CreatedAt;
  resolved_by: string | null;
  resolved_at: Date | null;
  resolution_note: string | null;
}

/** The sandbox payout provider's own books of the transfers it was asked for (migration 0038). */
export interface SandboxTransfersTable {
  reference: string;
  transfer_code: string;
  recipient_code: string;
  amount_cents: number;
  /** otp (waiting to be finalized) or pending (accepted): its outcome is read from the recipient and the clock. */
  status: string;
  created_at: Date;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  sign_in_links: SignInLinksTable;
  user_documents: UserDocumentsTable;
  notifications: NotificationsTable;
  mail_outbox: MailOutboxTable;
  live_events: LiveEventsTable;
  sign_in_throttle: SignInThrottleTable;
  reset_request_throttle: ResetRequestThrottleTable;
  settings: SettingsTable;
  cars: CarsTable;
  bookings: BookingsTable;
  car_holds: CarHoldsTable;
  reviews: ReviewsTable;
  payments: PaymentsTable;
  invoices: InvoicesTable;
  document_serials: DocumentSerialsTable;
  issued_documents: IssuedDocumentsTable;
  payout_reversals: PayoutReversalsTable;
  audit_log: AuditLogTable;
  ledger_entries: LedgerEntriesTable;
  sandbox_refunds: SandboxRefundsTable;
  sandbox_transfers: SandboxTransfersTable;
  booking_messages: BookingMessagesTable;
  booking_message_reads: BookingMessageReadsTable;
  booking_message_reports: BookingMessageReportsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type UserDocumentRow = Selectable<UserDocumentsTable>;
export type NotificationRow = Selectable<NotificationsTable>;
export type CarRow = Selectable<CarsTable>;
export type NewCar = Insertable<CarsTable>;
export type CarUpdate = Updateable<CarsTable>;
export type BookingRow = Selectable<BookingsTable>;
export type NewBooking = Insertable<BookingsTable>;
export type ReviewRow = Selectable<ReviewsTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type InvoiceRow = Selectable<InvoicesTable>;
export type LedgerEntryRow = Selectable<LedgerEntriesTable>;
