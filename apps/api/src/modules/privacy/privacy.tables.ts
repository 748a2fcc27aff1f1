// The privacy module's tables (migration 0026-privacy-rights), added to the database's type from
// here so that the module owns them (decision 036: each table has one writer).
import type { ColumnType, Generated } from 'kysely';
import type { ConsentKind, ConsentSource, CorrectionField } from '@karoo/shared';

type Written = ColumnType<Date, Date | string, never>;

export interface PrivacyConsentsTable {
  id: Generated<string>;
  user_id: string;
  kind: ConsentKind;
  version: string;
  /** The exact words the person was shown when they answered. */
  wording: string;
  granted: boolean;
  source: ConsentSource;
  /** A marketing yes carries its one-click unsubscribe token (it can only withdraw this consent). */
  unsubscribe_token: string | null;
  recorded_at: Written;
}

export interface DataExportsTable {
  id: Generated<string>;
  user_id: string;
  status: Generated<'preparing' | 'ready' | 'expired' | 'failed'>;
  storage_key: string | null;
  /** bigint, read as a number (db/connection.ts). */
  size_bytes: number | null;
  requested_at: Written;
  ready_at: Date | null;
  expires_at: Date | null;
}

export interface CorrectionRequestsTable {
  id: Generated<string>;
  user_id: string;
  field: CorrectionField;
  current_value: string | null;
  proposed_value: string;
  reason: string;
  status: Generated<'open' | 'approved' | 'declined'>;
  decided_by: string | null;
  decided_at: Date | null;
  decision_note: string | null;
  created_at: Written;
}

declare module '../../db/schema' {
  interface Database {
    privacy_consents: PrivacyConsentsTable;
    data_exports: DataExportsTable;
    correction_requests: CorrectionRequestsTable;
  }
}
