// Payouts sent by themselves (issue 35; docs/decisions/068-payouts-by-themselves.md): a host's
// schedule (each trip, weekly on a weekday, monthly on a day), the Johannesburg business days a run
// falls on (South Africa's public holidays, with the Public Holidays Act's Sunday rule), and the
// shapes of the payout endpoints.
import { z } from './zod';
import { safeText } from './text';
import { addDays } from './booking-rules';
import { isPublicHoliday } from './public-holidays';

// ---- Business days (the public holidays are public-holidays.ts's, one list for the calendar and the bank) ----

const asDate = (day: string) => new Date(`${day}T00:00:00Z`);

/** 0 Sunday … 6 Saturday, of a calendar date. */
export function weekdayOf(day: string): number {
  return asDate(day).getUTCDay();
}

/** A weekday (Monday to Friday) that is not a public holiday: banks pay on it. */
export function isBusinessDay(day: string): boolean {
  const w = weekdayOf(day);
  return w !== 0 && w !== 6 && !isPublicHoliday(day);
}

/** The day itself when it is a business day, or else the next one. */
export function nextBusinessDay(day: string): string {
  let d = day;
  while (!isBusinessDay(d)) d = addDays(d, 1);
  return d;
}

// ---- Schedules ----

export const PAYOUT_SCHEDULES = ['trip', 'weekly', 'monthly'] as const;
export type PayoutScheduleKind = (typeof PAYOUT_SCHEDULES)[number];

export interface PayoutSchedule {
  schedule: PayoutScheduleKind;
  /** Weekly: 1 Monday … 5 Friday. */
  weekday: number;
  /** Monthly: 1 to 28 (every month has it). */
  month_day: number;
}

export const DEFAULT_PAYOUT_SCHEDULE: PayoutSchedule = { schedule: 'weekly', weekday: 5, month_day: 25 };

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;

/**
 * The Johannesburg day of the host's next run on or after `today`: each trip runs every business
 * day; weekly on its weekday, monthly on its day; a run that falls on a public holiday (or, monthly,
 * a weekend) moves to the next business day.
 */
export function nextRunDay(s: PayoutSchedule, today: string): string {
  if (s.schedule === 'trip') return nextBusinessDay(today);
  // The scheduled day of the period that contains `today`, or of an earlier one, can still be moved
  // onto or past today by a holiday: look a little back first.
  for (let back = s.schedule === 'weekly' ? 7 : 5; back >= 1; back--) {
    const earlier = addDays(today, -back);
    if (scheduledOn(s, earlier) && nextBusinessDay(earlier) >= today) return nextBusinessDay(earlier);
  }
  for (let d = today; ; d = addDays(d, 1)) if (scheduledOn(s, d)) return nextBusinessDay(d);
}

/** The schedule names this calendar day (before any holiday moves it). */
function scheduledOn(s: PayoutSchedule, day: string): boolean {
  if (s.schedule === 'weekly') return weekdayOf(day) === s.weekday;
  if (s.schedule === 'monthly') return Number(day.slice(8, 10)) === s.month_day;
  return true;
}

/** Is `today` a run day of this schedule? */
export function isRunDay(s: PayoutSchedule, today: string): boolean {
  return nextRunDay(s, today) === today;
}

/** "Weekly on Friday", "Monthly on the 25th", "After each trip". */
export function scheduleLabel(s: PayoutSchedule): string {
  if (s.schedule === 'trip') return 'After each trip (next business day)';
  if (s.schedule === 'weekly') return `Weekly on ${WEEKDAY_NAMES[s.weekday]}`;
  const n = s.month_day;
  const suffix = n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th';
  return `Monthly on the ${n}${suffix}`;
}

// ---- Transfers ----

/** A transfer's life: queued (ours, not yet asked), otp (Paystack waits for the OTP), pending (under way), success, failed, reversed. */
export const TRANSFER_STATES = ['queued', 'otp', 'pending', 'success', 'failed', 'reversed'] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

export const TRANSFER_STATE_LABELS: Record<TransferState, string> = {
  queued: 'Queued',
  otp: 'Waiting for OTP',
  pending: 'Sent',
  success: 'Paid',
  failed: 'Failed',
  reversed: 'Reversed',
};

// ---- API shapes ----

const accountNumber = z
  .string({ error: 'Account number is required' })
  .trim()
  .regex(/^\d{6,16}$/, 'Account number must be 6 to 16 digits');
const bankCode = z
  .string({ error: 'Bank is required' })
  .trim()
  .regex(/^[0-9A-Za-z-]{2,20}$/, 'Choose your bank');

export const bankSchema = z.object({ code: z.string(), name: z.string() });
export type Bank = z.infer<typeof bankSchema>;

export const resolveBankAccountBodySchema = z.object({ bank_code: bankCode, account_number: accountNumber });
export const resolvedBankAccountSchema = z.object({ bank_code: z.string(), bank_name: z.string(), account_number: z.string(), account_name: z.string() });
export type ResolvedBankAccount = z.infer<typeof resolvedBankAccountSchema>;

export const saveBankAccountBodySchema = resolveBankAccountBodySchema.extend({
  /** The holder's name the host saw and confirmed: it must still be the bank's answer. */
  confirmed_account_name: safeText('Account holder').min(1, 'Confirm the account holder').max(200),
});

export const payoutScheduleBodySchema = z
  .object({
    schedule: z.enum(PAYOUT_SCHEDULES, { error: 'Choose each trip, weekly or monthly' }),
    weekday: z.number().int().min(1, 'Weekly payouts run Monday to Friday').max(5, 'Weekly payouts run Monday to Friday').optional(),
    month_day: z.number().int().min(1, 'Choose a day from 1 to 28').max(28, 'Choose a day from 1 to 28').optional(),
  })
  .strict();

export const payoutAccountSchema = z.object({
  bank_code: z.string(),
  bank_name: z.string(),
  /** The last four digits only. */
  account_number_last4: z.string(),
  account_name: z.string(),
  confirmed_at: z.string(),
  /** Payouts wait until then after a change of account (the cooling-off), or null. */
  hold_until: z.string().nullable(),
});
export type PayoutAccount = z.infer<typeof payoutAccountSchema>;

export const payoutLineSchema = z.object({
  kind: z.enum(['trip', 'penalty']),
  booking_number: z.string().nullable(),
  label: z.string(),
  amount: z.number(),
});
export type PayoutLine = z.infer<typeof payoutLineSchema>;

export const payoutTransferSchema = z.object({
  id: z.string(),
  host_id: z.string(),
  host_username: z.string(),
  amount: z.number(),
  state: z.enum(TRANSFER_STATES),
  reference: z.string(),
  transfer_code: z.string().nullable(),
  failure_reason: z.string().nullable(),
  bank_name: z.string(),
  account_number_last4: z.string(),
  bookings: z.array(z.string()),
  created_at: z.string(),
  settled_at: z.string().nullable(),
  /** A failed or reversed transfer paid again (by a later transfer): no Retry. */
  retried: z.boolean(),
});
export type PayoutTransfer = z.infer<typeof payoutTransferSchema>;

export const hostPayoutsSchema = z.object({
  account: payoutAccountSchema.nullable(),
  schedule: z.object({ schedule: z.enum(PAYOUT_SCHEDULES), weekday: z.number(), month_day: z.number(), label: z.string() }),
  next_payout: z.object({
    amount: z.number(),
    /** The Johannesburg day of the next run. */
    day: z.string(),
    lines: z.array(payoutLineSchema),
    /** Why nothing will be sent then, when that is so. */
    held_reason: z.string().nullable(),
  }),
  /** Trips whose share is not payable yet (completed less than the delay ago), and when. */
  upcoming: z.array(z.object({ booking_number: z.string(), amount: z.number(), payable_from: z.string() })),
  transfers: z.array(payoutTransferSchema),
  /** Months with a statement ('YYYY-MM'), newest first. */
  statement_months: z.array(z.string()),
});
export type HostPayouts = z.infer<typeof hostPayoutsSchema>;

export const adminPayoutsSchema = z.object({
  paused_all: z.boolean(),
  /** What the next runs need in the Paystack balance: every host's payable amount now. */
  needed_for_next_run: z.number(),
  scheduled: z.array(z.object({ host_id: z.string(), host_username: z.string(), amount: z.number(), day: z.string(), held_reason: z.string().nullable() })),
  transfers: z.array(payoutTransferSchema),
  paused_hosts: z.array(z.object({ host_id: z.string(), host_username: z.string(), reason: z.string(), paused_at: z.string() })),
});
export type AdminPayouts = z.infer<typeof adminPayoutsSchema>;

export const pauseHostPayoutsBodySchema = z.object({
  paused: z.boolean(),
  reason: safeText('Reason').max(500).optional(),
});
export const finalizeTransferBodySchema = z.object({ otp: z.string().trim().regex(/^\d{4,8}$/, 'The OTP is 4 to 8 digits') });
