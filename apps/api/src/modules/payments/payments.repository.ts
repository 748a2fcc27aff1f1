// SQL for payment attempts: each reference the server issues, tied to one booking, and its outcome.
import type { Db } from '../../db/connection';
import type { PaymentRow } from '../../db/schema';

export type PaymentOutcome = 'success' | 'failed';

export async function insertPayment(
  db: Db,
  payment: { reference: string; booking_id: string; provider: PaymentRow['provider']; amount_cents: number },
  now: Date,
): Promise<void> {
  await db
    .insertInto('payments')
    .values({ ...payment, currency: 'ZAR', message: null, created_at: now, updated_at: now })
    .execute();
}

export function findPayment(db: Db, reference: string): Promise<PaymentRow | undefined> {
  return db.selectFrom('payments').selectAll().where('reference', '=', reference).executeTakeFirst();
}

/** Records what happened to a reference; a success is final and never overwritten. */
export async function recordOutcome(db: Db, reference: string, status: PaymentOutcome, message: string | null, now: Date): Promise<void> {
  await db
    .updateTable('payments')
    .set({ status, message, updated_at: now })
    .where('reference', '=', reference)
    .where('status', '!=', 'success')
    .execute();
}
