// The refunds of a charge as the ledger holds them (migration 0020): each a row, pending until the
// provider accepts it (succeeded, with when the money moved), or failed after repeated refusals.
import type { Db } from '../../src/db/connection';

/** The ledger's refund rows of one charge reference, oldest first. */
export function refundsOfCharge(db: Db, reference: string) {
  return db.selectFrom('ledger_entries').selectAll().where('kind', '=', 'refund').where('charge_reference', '=', reference).orderBy('seq').execute();
}

/** The one refund of a charge (fails the test when there is not exactly one). */
export async function refundOfCharge(db: Db, reference: string) {
  const rows = await refundsOfCharge(db, reference);
  if (rows.length !== 1) throw new Error(`Expected one refund of ${reference}, found ${rows.length}`);
  return rows[0]!;
}

/** Runs every refund job due at the test clock's time, as a worker would; answers how many ran. */
export function runRefundJobs(w: { t: { ctx: { jobs: { runDue(name: 'refunds.attempt'): Promise<number> } } } }): Promise<number> {
  return w.t.ctx.jobs.runDue('refunds.attempt');
}
