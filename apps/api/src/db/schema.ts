// Table types for Kysely. Money is integer cents; timestamps are timestamptz.
import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface UsersTable {
  id: Generated<string>;
  username: string;
  email: string;
  password_hash: string;
  full_name: string;
  phone_number: string | null;
  address: string | null;
  id_number: string | null;
  bank_account_number: string | null;
  bank_code: string | null;
  role: 'admin' | 'host' | 'customer';
  user_type: string | null;
  verification_status: 'pending_upload' | 'pending_verification' | 'verified' | 'rejected';
  verification_notes: string | null;
  verified_at: Date | null;
  host_since: Date | null;
  rating: number | null;
  total_trips: Generated<number>;
  terms_accepted_at: Date | null;
  privacy_accepted_at: Date | null;
  created_at: CreatedAt;
  updated_at: Timestamp;
  deleted_at: Date | null;
}

export interface SessionsTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  created_at: CreatedAt;
  last_used_at: Timestamp;
  revoked_at: Date | null;
  user_agent: string | null;
  ip: string | null;
}

export interface PasswordResetTokensTable {
  id: Generated<string>;
  user_id: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: CreatedAt;
}

export interface UserDocumentsTable {
  id: Generated<string>;
  user_id: string;
  type: 'id_document' | 'driver_license' | 'proof_of_address' | 'bank_confirmation_letter';
  storage_key: string;
  original_name: string;
  mime_type: string;
  size_bytes: number;
  uploaded_at: Timestamp;
}

export interface NotificationsTable {
  id: Generated<string>;
  user_id: string;
  type: string;
  title: string;
  message: string;
  link: string | null;
  read: Generated<boolean>;
  created_at: CreatedAt;
}

export interface MailOutboxTable {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  transport: 'smtp' | 'outbox';
  sent_at: Date | null;
  error: string | null;
  created_at: CreatedAt;
}

export interface AuthThrottleTable {
  key: string;
  failures: number;
  window_started_at: Date;
  locked_until: Date | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  user_documents: UserDocumentsTable;
  notifications: NotificationsTable;
  mail_outbox: MailOutboxTable;
  auth_throttle: AuthThrottleTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type UserDocumentRow = Selectable<UserDocumentsTable>;
export type NotificationRow = Selectable<NotificationsTable>;
