// The CPA s. 17 waivers' table (migration 0039-traffic-fines-and-fee-waivers), owned by the payments module.
import type { ColumnType, Generated } from 'kysely';
import type { WaiverGround, WaiverStatus } from '@karoo/shared';

type Written = ColumnType<Date, Date | string, never>;
type Changing<T> = ColumnType<T, T | undefined, T>;

export interface CancellationFeeWaiversTable {
  id: Generated<string>;
  booking_id: string;
  renter_id: string;
  ground: WaiverGround;
  person: 'renter' | 'family';
  statement: string;
  fee_cents: number;
  evidence_storage_key: string;
  evidence_mime: string;
  status: Changing<WaiverStatus>;
  decided_by: Changing<string | null>;
  decision_reason: Changing<string | null>;
  decided_at: Changing<Date | null>;
  refund_entry_id: Changing<string | null>;
  created_at: Written;
  updated_at: Date;
}

declare module '../../db/schema' {
  interface Database {
    cancellation_fee_waivers: CancellationFeeWaiversTable;
  }
}
