// The traffic fines' table (migration 0039-traffic-fines-and-fee-waivers), owned by the trips module.
import type { ColumnType, Generated } from 'kysely';
import type { FineStatus } from '@karoo/shared';

type Written = ColumnType<Date, Date | string, never>;
type Changing<T> = ColumnType<T, T | undefined, T>;

export interface TrafficFinesTable {
  id: Generated<string>;
  car_id: string;
  host_id: string;
  booking_id: string | null;
  renter_id: string | null;
  plate: string;
  occurred_at: Date;
  place: string;
  amount_cents: number;
  notice_number: string;
  served_on: ColumnType<string, string, never>;
  nominate_by: ColumnType<string, string, never>;
  notice_storage_key: string;
  notice_mime: string;
  status: Changing<FineStatus>;
  status_note: Changing<string | null>;
  entered_by: string;
  reminded_at: Changing<Date | null>;
  created_at: Written;
  updated_at: Date;
}

declare module '../../db/schema' {
  interface Database {
    traffic_fines: TrafficFinesTable;
  }
}
