// The trips module's tables (migration 0022-trip-records), added to the database's type from here
// so that the module owns them (decision 036: each table has one writer).
import type { ColumnType, Generated } from 'kysely';
import type { DisputeKind, PhotoSlot, TripParty, TripStage } from '@karoo/shared';

type Written = ColumnType<Date, Date | string, never>;

export interface TripRecordsTable {
  id: Generated<string>;
  booking_id: string;
  stage: TripStage;
  party: TripParty;
  author_id: string;
  odometer_km: number;
  fuel_eighths: number;
  note: string;
  created_at: Written;
}

export interface TripDisputesTable {
  id: Generated<string>;
  booking_id: string;
  kind: DisputeKind;
  description: string;
  opened_by: string;
  status: Generated<'open' | 'resolved'>;
  created_at: Written;
  resolved_by: string | null;
  resolved_at: Date | null;
  resolution_note: string | null;
}

export interface TripPhotosTable {
  id: Generated<string>;
  booking_id: string;
  record_id: string | null;
  dispute_id: string | null;
  slot: PhotoSlot;
  position: number;
  storage_key: string;
  mime_type: string;
  created_at: Written;
}

declare module '../../db/schema' {
  interface Database {
    trip_records: TripRecordsTable;
    trip_disputes: TripDisputesTable;
    trip_photos: TripPhotosTable;
  }
}
