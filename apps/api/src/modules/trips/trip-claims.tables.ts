// The claims' tables (migration 0036-deposits-and-trip-charges), owned by the trips module.
import type { ColumnType, Generated } from 'kysely';
import type { ClaimStatus, TripChargeKind } from '@karoo/shared';

type Written = ColumnType<Date, Date | string, never>;
type Changing<T> = ColumnType<T, T | undefined, T>;

export interface TripClaimsTable {
  id: Generated<string>;
  booking_id: string;
  host_id: string;
  renter_id: string;
  status: Changing<ClaimStatus>;
  claimed_cents: number;
  host_statement: Changing<string>;
  answer_due_at: Date;
  renter_answer: Changing<'accepted' | 'disputed' | 'unanswered' | null>;
  renter_statement: Changing<string | null>;
  answered_at: Changing<Date | null>;
  decided_cents: Changing<number | null>;
  decided_by: Changing<string | null>;
  decision_reason: Changing<string | null>;
  decided_at: Changing<Date | null>;
  settled_cents: Changing<number | null>;
  from_deposit_cents: Changing<number>;
  card_cents: Changing<number>;
  payment_state: Changing<'none' | 'paid' | 'card_declined'>;
  card_reference: Changing<string | null>;
  payment_error: Changing<string | null>;
  settled_at: Changing<Date | null>;
  created_at: Written;
  updated_at: Date;
}

export interface TripClaimItemsTable {
  id: Generated<string>;
  claim_id: string;
  kind: TripChargeKind;
  amount_cents: number;
  detail: string;
  note: string;
  position: number;
}

export interface TripClaimEvidenceTable {
  id: Generated<string>;
  claim_id: string;
  party: 'host' | 'renter';
  storage_key: string;
  mime_type: string;
  position: number;
  created_at: Written;
}

declare module '../../db/schema' {
  interface Database {
    trip_claims: TripClaimsTable;
    trip_claim_items: TripClaimItemsTable;
    trip_claim_evidence: TripClaimEvidenceTable;
  }
}
