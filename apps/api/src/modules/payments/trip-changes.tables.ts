// The trip changes' table (migration 0042-trip-changes), owned by the payments module (decision 081).
import type { ColumnType, Generated } from 'kysely';
import type { TripChangeStatus } from '@karoo/shared';

type Written = ColumnType<Date, Date | string, never>;
type Changing<T> = ColumnType<T, T | undefined, T>;
/** A date column: read as 'YYYY-MM-DD' (db/connection.ts reads dates as text). */
type Day = ColumnType<string, string, never>;

export interface TripChangesTable {
  id: Generated<string>;
  booking_id: string;
  renter_id: string;
  host_id: string;
  status: Changing<TripChangeStatus>;
  from_start_date: Day;
  from_end_date: Day;
  from_start_time: string;
  from_end_time: string;
  to_start_date: Day;
  to_end_date: Day;
  to_start_time: string;
  to_end_time: string;
  new_total_cents: number;
  kept_cents: number;
  net_cents: number;
  host_difference_cents: number;
  summary: string;
  message: string | null;
  note: Changing<string | null>;
  failure: Changing<string | null>;
  answer_by: Date;
  answered_at: Changing<Date | null>;
  answered_by: Changing<string | null>;
  charge_reference: Changing<string | null>;
  created_at: Written;
  updated_at: Date;
}

declare module '../../db/schema' {
  interface Database {
    trip_changes: TripChangesTable;
  }
}
