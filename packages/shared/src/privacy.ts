// POPIA rights in the product (issue 24, decision 049): the versions of the terms and privacy notice
// in force, the marketing consent's exact words, what a correction may ask for, and the shapes of
// the Privacy and data page's API. The server records and enforces; the web shows the same words.
import { z } from './zod';
import { safeText } from './text';

export const CONSENT_KINDS = ['terms', 'privacy', 'marketing'] as const;
export type ConsentKind = (typeof CONSENT_KINDS)[number];
export const CONSENT_SOURCES = ['register', 'privacy_page', 'sign_in', 'unsubscribe', 'migration'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

export interface PolicyVersion {
  /** The version's name, recorded with each acceptance. */
  version: string;
  /** The day it took effect (YYYY-MM-DD). */
  effective: string;
  /** What changed from the version before, shown when a person is asked to accept it. */
  changes: string[];
}

/**
 * The terms and the privacy notice in force. Publishing a new version is adding it here: everybody
 * whose latest acceptance is of an older one is asked to accept it at their next sign-in, and sees
 * its `changes`. '2025-01' is what every account accepted before versions were recorded
 * (migration 0026 records it for them).
 */
export const CURRENT_POLICIES: Record<'terms' | 'privacy', PolicyVersion> = {
  terms: { version: '2025-01', effective: '2025-01-15', changes: ['The terms every account has accepted since Karoo opened.'] },
  privacy: { version: '2025-01', effective: '2025-01-15', changes: ['The privacy notice every account has accepted since Karoo opened.'] },
};
export const POLICY_NAMES: Record<'terms' | 'privacy', string> = { terms: 'Terms and Conditions', privacy: 'Privacy Notice' };

/** The marketing opt-in, exactly as the register form and the Privacy and data page show it. */
export const MARKETING_CONSENT = {
  version: 'marketing-2026-11',
  wording: 'Email me Karoo news and new cars in my city, at most once a month. I can unsubscribe at any time with one click.',
} as const;

/** Fields the person cannot change themselves once their account is verified: a correction asks an administrator. */
export const CORRECTION_FIELDS = ['full_name', 'email', 'address', 'id_number', 'bank_account_number', 'bank_code'] as const;
export type CorrectionField = (typeof CORRECTION_FIELDS)[number];
export const CORRECTION_FIELD_LABELS: Record<CorrectionField, string> = {
  full_name: 'Full name',
  email: 'Email address',
  address: 'Address',
  id_number: 'ID number',
  bank_account_number: 'Bank account number',
  bank_code: 'Bank code',
};

/** How long a ready export can be downloaded. */
export const DATA_EXPORT_VALID_HOURS = 24;

// ---- What is held ----
export const heldCategorySchema = z.object({
  key: z.string(),
  label: z.string(),
  /** What the category holds, in a sentence. */
  what: z.string(),
  /** Where it came from. */
  source: z.string(),
  /** Why Karoo keeps it (the purpose, POPIA s. 13 and 18). */
  purpose: z.string(),
  /** How many records of it Karoo holds about the person now. */
  count: z.number().int().nonnegative(),
});
export type HeldCategory = z.infer<typeof heldCategorySchema>;

export const documentViewSchema = z.object({
  /** The role of who looked, never their name. */
  role: z.string(),
  document: z.string(),
  viewed_at: z.string(),
});
export type DocumentView = z.infer<typeof documentViewSchema>;

export const consentStateSchema = z.object({
  granted: z.boolean(),
  recorded_at: z.string().nullable(),
  wording: z.string().nullable(),
  version: z.string().nullable(),
});
export type ConsentState = z.infer<typeof consentStateSchema>;

export const policyStateSchema = z.object({
  kind: z.enum(['terms', 'privacy']),
  name: z.string(),
  current_version: z.string(),
  effective: z.string(),
  changes: z.array(z.string()),
  accepted_version: z.string().nullable(),
  accepted_at: z.string().nullable(),
  needs_acceptance: z.boolean(),
});
export type PolicyState = z.infer<typeof policyStateSchema>;

export const privacyOverviewSchema = z.object({
  categories: z.array(heldCategorySchema),
  document_views: z.array(documentViewSchema),
  marketing: consentStateSchema,
  policies: z.array(policyStateSchema),
});
export type PrivacyOverview = z.infer<typeof privacyOverviewSchema>;

// ---- Download everything ----
export const dataExportSchema = z.object({
  id: z.string(),
  /** expired: was ready, past its 24 hours (the file is gone). */
  status: z.enum(['preparing', 'ready', 'expired', 'failed']),
  requested_at: z.string(),
  ready_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  size_bytes: z.number().nullable(),
});
export type DataExport = z.infer<typeof dataExportSchema>;

// ---- Marketing and policies ----
export const marketingChoiceBodySchema = z.object({ granted: z.boolean({ error: 'Choose yes or no' }) });
export type MarketingChoiceBody = z.infer<typeof marketingChoiceBodySchema>;

export const acceptPoliciesBodySchema = z.object({
  terms_version: safeText('Terms version').min(1).max(40),
  privacy_version: safeText('Privacy notice version').min(1).max(40),
});
export type AcceptPoliciesBody = z.infer<typeof acceptPoliciesBodySchema>;

// ---- Corrections ----
export const correctionRequestBodySchema = z.object({
  field: z.enum(CORRECTION_FIELDS, { error: 'Choose the detail to correct' }),
  proposed_value: safeText('The correct value').trim().min(1, 'Enter the correct value').max(300, 'At most 300 characters'),
  reason: safeText('Reason', { multiline: true }).trim().min(5, 'Say briefly why it is wrong (at least 5 characters)').max(1000, 'At most 1000 characters'),
});
export type CorrectionRequestBody = z.infer<typeof correctionRequestBodySchema>;

export const correctionRequestSchema = z.object({
  id: z.string(),
  field: z.enum(CORRECTION_FIELDS),
  current_value: z.string().nullable(),
  proposed_value: z.string(),
  reason: z.string(),
  status: z.enum(['open', 'approved', 'declined']),
  decided_at: z.string().nullable(),
  decision_note: z.string().nullable(),
  created_at: z.string(),
});
export type CorrectionRequest = z.infer<typeof correctionRequestSchema>;

export const adminCorrectionRequestSchema = correctionRequestSchema.extend({
  user: z.object({ id: z.string(), username: z.string(), full_name: z.string(), verification_status: z.string() }),
});
export type AdminCorrectionRequest = z.infer<typeof adminCorrectionRequestSchema>;

export const correctionDecisionBodySchema = z.object({
  decision: z.enum(['approve', 'decline'], { error: 'Approve or decline' }),
  note: safeText('Note', { multiline: true }).trim().min(3, 'Write a note for the person (at least 3 characters)').max(1000, 'At most 1000 characters'),
});
export type CorrectionDecisionBody = z.infer<typeof correctionDecisionBodySchema>;
