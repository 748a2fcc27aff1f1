// What the platform does on its own under POPIA (issue 24, decision 050): deleting an account
// (s. 24), documents kept only as long as needed (s. 14), breaches recorded and told (s. 22), and
// the Information Officer named on the privacy page. Shapes of the API, shared by the server and the web app.
import { z } from './zod';
import { safeText } from './text';

// ---- Account deletion ----
export const keptRecordSchema = z.object({ what: z.string(), why: z.string(), until: z.string() });
export type KeptRecordView = z.infer<typeof keptRecordSchema>;

export const deletionPlanSchema = z.object({
  /** Why the account cannot be deleted now (empty: it can). */
  blockers: z.array(z.string()),
  /** Booking requests not paid yet that deleting cancels (the other party is told). */
  cancelsRequests: z.number().int().nonnegative(),
  erased: z.array(z.string()),
  kept: z.array(keptRecordSchema),
  records_kept_until: z.string(),
});
export type DeletionPlan = z.infer<typeof deletionPlanSchema>;

export const deleteAccountBodySchema = z.object({
  password: z.string({ error: 'Enter your password' }).min(1, 'Enter your password').max(200),
});
export type DeleteAccountBody = z.infer<typeof deleteAccountBodySchema>;

export const accountDeletedSchema = z.object({ deleted_at: z.string(), records_kept_until: z.string() });

/** What the counterpart of a deleted account sees in its place. */
export const FORMER_MEMBER_NAME = 'Former member';

// ---- Identity documents kept only as long as needed ----
export const DEFAULT_DOCUMENT_RETENTION_DAYS = 90;
export const DEFAULT_UNSUBMITTED_DOCUMENT_DAYS = 30;

// ---- Breaches (s. 22) ----
export const BREACH_DATA_CATEGORIES = [
  'identity',
  'contact',
  'identity_documents',
  'bank_details',
  'bookings_and_trips',
  'messages',
  'payments',
  'sign_in',
] as const;
export type BreachDataCategory = (typeof BREACH_DATA_CATEGORIES)[number];
export const BREACH_CATEGORY_LABELS: Record<BreachDataCategory, string> = {
  identity: 'Names and usernames',
  contact: 'Email addresses, phone numbers and addresses',
  identity_documents: 'Identity documents and ID numbers',
  bank_details: 'Bank account details',
  bookings_and_trips: 'Bookings and trip records',
  messages: 'Messages between renters and hosts',
  payments: 'Payment records',
  sign_in: 'Passwords (hashed) and sign-in history',
};

const longText = (label: string) => safeText(label, { multiline: true }).min(10, `${label} needs at least 10 characters`).max(4000, `${label} must be at most 4000 characters`);

export const newBreachBodySchema = z
  .object({
    summary: longText('What happened'),
    discovered_at: z.iso.datetime({ offset: true, error: 'When it was discovered must be a date and time' }),
    data_categories: z.array(z.enum(BREACH_DATA_CATEGORIES)).min(1, 'Choose at least one kind of information'),
    measures: longText('Measures taken'),
    advice: longText('What people should do'),
    /** Everyone with an account, or the listed usernames or emails. */
    scope: z.enum(['all', 'listed']),
    users: z.array(safeText('User').min(1).max(254)).max(10_000).default([]),
    regulator_notified_at: z.iso.datetime({ offset: true }).nullable().optional(),
  })
  .refine((b) => b.scope === 'all' || b.users.length > 0, { path: ['users'], message: 'List the affected users, or choose everyone' });
export type NewBreachBody = z.infer<typeof newBreachBodySchema>;

export const breachSchema = z.object({
  id: z.string(),
  summary: z.string(),
  discovered_at: z.string(),
  data_categories: z.array(z.string()),
  measures: z.string(),
  advice: z.string(),
  scope: z.enum(['all', 'listed']),
  recorded_by: z.string(),
  recorded_at: z.string(),
  regulator_notified_at: z.string().nullable(),
  affected: z.number().int(),
  notified: z.number().int(),
});
export type Breach = z.infer<typeof breachSchema>;

// ---- The Information Officer (settings; the privacy page names them) ----
/**
 * How to complain to the Information Regulator (checked November 2026 against the Regulator's "How
 * to Lodge a Complaint" page and its published email addresses): through its eServices portal, or
 * POPIA Form 5 by email as the fallback.
 */
export const INFORMATION_REGULATOR = {
  name: 'Information Regulator (South Africa)',
  website: 'https://inforegulator.org.za',
  portal: 'https://eservices.inforegulator.org.za',
  complaintsEmail: 'POPIAComplaints@inforegulator.org.za',
  enquiriesEmail: 'enquiries@inforegulator.org.za',
  phone: '010 023 5200',
  address: 'JD House, 27 Stiemens Street, Braamfontein, Johannesburg, 2001',
} as const;

export const informationOfficerSchema = z.object({
  name: z.string(),
  email: z.string(),
  phone: z.string(),
});
export type InformationOfficer = z.infer<typeof informationOfficerSchema>;
