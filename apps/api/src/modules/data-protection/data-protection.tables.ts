// The data-protection module's tables and columns (migration 0027-deletion-retention-breaches),
// added to the database's type from here so that the module owns them (decision 036).
import type { ColumnType, Generated, GeneratedAlways } from 'kysely';

type Json<T> = ColumnType<T, string, string>;

/** What an account deletion erased and kept, as the register and the confirmation email say it. */
export interface KeptRecord {
  what: string;
  why: string;
  until: string;
}

export interface AccountDeletionsTable {
  id: Generated<string>;
  user_id: string;
  role: string;
  deleted_at: Date;
  erased: Json<string[]>;
  kept: Json<KeptRecord[]>;
  /** 'YYYY-MM-DD' (DATE is parsed as a string). */
  records_kept_until: string;
}

export type BreachScope = 'all' | 'listed';

export interface DataBreachesTable {
  id: Generated<string>;
  seq: GeneratedAlways<string>;
  summary: string;
  discovered_at: Date;
  data_categories: Json<string[]>;
  measures: string;
  advice: string;
  scope: BreachScope;
  recorded_by: string;
  recorded_at: Date;
  regulator_notified_at: Date | null;
  affected_count: Generated<number>;
}

export interface DataBreachNoticesTable {
  breach_id: string;
  user_id: string;
  notified_at: Date | null;
}

export type DocumentErasureReason = 'verified_retention' | 'rejected' | 'not_submitted' | 'account_deleted';

declare module '../../db/schema' {
  interface Database {
    account_deletions: AccountDeletionsTable;
    data_breaches: DataBreachesTable;
    data_breach_notices: DataBreachNoticesTable;
  }
  interface UserDocumentsTable {
    /** When the file was deleted from the store (the row stays as the record of verification). */
    file_erased_at: Date | null;
    erasure_reason: DocumentErasureReason | null;
    /** The administrator who verified the account this document belongs to, and when (kept after the file goes). */
    verified_by: string | null;
    verified_at: Date | null;
    /** The sweep has seen the file sealed (lib/document-encryption.ts). */
    encrypted: Generated<boolean>;
  }
  interface CarsTable {
    registration_encrypted: Generated<boolean>;
  }
}
