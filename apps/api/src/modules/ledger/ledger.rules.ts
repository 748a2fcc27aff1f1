// The ledger's rules that more than one of its queries sums by, written once (issue 33: "one rule,
// one owner"). Each is a SQL fragment over `ledger_entries l` (and, where it says so, `bookings b`);
// ledger.repository.ts (one host's figures) and ledger.reports.ts (every host's, admin Finance) both
// read them, so a change to what a host is owed is made here and reaches every screen at once.
import { sql } from 'kysely';

/**
 * The rows that count in what a host is owed: the settled ones, and payouts under way (a transfer
 * sent and not yet answered is money no longer owed; it is owed again if the transfer fails).
 */
export const COUNTS_FOR_HOST = sql<boolean>`(l.state = 'succeeded' OR (l.kind = 'payout' AND l.state = 'pending'))`;

/**
 * A row's part in what its host is owed, over `l` joined to its booking `b`: shares of final trips
 * (completed, or cancelled with a fee kept) less penalties, less payouts, plus reversals. Summed over
 * the rows COUNTS_FOR_HOST keeps.
 */
export const HOST_BALANCE_PART = sql<number>`CASE
  WHEN l.kind = 'host_earning' AND b.status IN ('completed', 'cancelled') THEN l.amount_cents
  WHEN l.kind = 'host_penalty' THEN -l.amount_cents
  WHEN l.kind = 'payout' THEN -l.amount_cents
  WHEN l.kind = 'payout_reversal' THEN l.amount_cents
  ELSE 0 END`;

/** A row's part in what was paid out: a payout, less its reversal. */
export const PAID_OUT_PART = sql<number>`CASE WHEN l.kind = 'payout' THEN l.amount_cents WHEN l.kind = 'payout_reversal' THEN -l.amount_cents ELSE 0 END`;

/**
 * A failed refund row `alias` that an administrator's Retry has taken the place of: a later refund
 * row of the same booking, code, amount and charge (recordRefundRetry copies all four). Until then a
 * failed refund is still owed to the renter.
 */
export function refundRetried(alias: string) {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<boolean>`EXISTS (
    SELECT 1 FROM ledger_entries retry
    WHERE retry.booking_id = ${col('booking_id')} AND retry.kind = 'refund' AND retry.code = ${col('code')}
      AND retry.amount_cents = ${col('amount_cents')} AND retry.charge_reference IS NOT DISTINCT FROM ${col('charge_reference')}
      AND retry.seq > ${col('seq')}
  )`;
}

/** A refund row `alias` still on its way to the renter: pending, or failed and not retried yet. */
export function refundStillOwed(alias: string) {
  const col = (name: string) => sql.ref(`${alias}.${name}`);
  return sql<boolean>`(${col('kind')} = 'refund' AND (${col('state')} = 'pending' OR (${col('state')} = 'failed' AND NOT ${refundRetried(alias)})))`;
}
