// The payouts module's tables (migration 0038; decision 068), added to the database's type from here
// so that the module owns them (decision 036: each table has one writer).
import type { ColumnType, Generated } from 'kysely';
import type { PayoutScheduleKind, TransferState } from '@karoo/shared';

export interface HostPayoutAccountsTable {
  host_id: string;
  bank_code: string;
  bank_name: string;
  account_number: string;
  /** The holder's name as the bank answered it, which the host confirmed. */
  account_name: string;
  recipient_code: string;
  confirmed_at: Date;
  hold_until: Date | null;
  schedule: ColumnType<PayoutScheduleKind, PayoutScheduleKind | undefined, PayoutScheduleKind>;
  weekday: ColumnType<number, number | undefined, number>;
  month_day: ColumnType<number, number | undefined, number>;
  paused_at: Date | null;
  paused_reason: string | null;
  paused_by: string | null;
  updated_at: Date;
}

/** A booking a transfer pays (its share may be part of the amount, or taken by a penalty). */
export interface TransferBooking {
  id: string;
  number: string;
}

export interface PayoutTransfersTable {
  id: Generated<string>;
  host_id: string;
  run_key: string;
  reference: string;
  amount_cents: number;
  state: TransferState;
  recipient_code: string;
  bank_name: string;
  account_number_last4: string;
  transfer_code: string | null;
  failure_reason: string | null;
  bookings: ColumnType<TransferBooking[], string, string>;
  retry_of: string | null;
  actor_id: string | null;
  created_at: Date;
  updated_at: Date;
  settled_at: Date | null;
}

declare module '../../db/schema' {
  interface Database {
    host_payout_accounts: HostPayoutAccountsTable;
    payout_transfers: PayoutTransfersTable;
  }
}
